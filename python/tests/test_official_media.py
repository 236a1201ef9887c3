"""OpenAI images and audio through the official Python `openai` client, against the mock the pytest-mockllm fixture
starts (the Node runtime): images.generate (b64 decoded as a PNG of the asked size, and a url fetched), images.edit
with a file, audio.speech.create (a WAV read with the standard library's `wave`), audio.transcriptions.create in every
response format, streamed, and a scripted 429 then the scripted transcript, verified."""

import base64
import io
import struct
import urllib.request
import wave
import zlib
from typing import Any, Dict, Tuple

import pytest
from pytest_mockllm_server import MockLLM

MEDIA: Dict[str, Any] = {
    "name": "py-media",
    "steps": [
        {"id": "img", "match": {"endpoint": "images"}, "consume": False, "respond": {"image": {"color": "#0a0b0c"}}},
        {"id": "stt", "match": {"endpoint": "transcriptions", "lastUserMessage": "meeting.wav"},
         "failures": [{"kind": "rate_limit", "retryAfterMs": 0}], "respond": {"transcript": "Scripted meeting notes."}},
    ],
}
DEFAULT = "The quick brown fox jumps over the lazy dog."


def png(data: bytes) -> Tuple[int, int, bytes]:
    """Width, height and the first pixel, inflated with zlib."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    (idat_len,) = struct.unpack(">I", data[33:37])
    raw = zlib.decompress(data[41:41 + idat_len])
    return width, height, raw[1:4]


def client(mockllm: MockLLM, scripted: bool = True) -> Any:
    """A client of the uploaded scenario's session, or (scripted=False) of the default responder."""
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    base = mockllm.base_url("openai") if scripted else f"{mockllm.url}/v1"
    return openai.OpenAI(base_url=base, api_key="sk-test", max_retries=0)


def test_images_generate_b64_and_url_and_edit(mockllm: MockLLM) -> None:
    mockllm.upload(MEDIA)
    c = client(mockllm)
    res = c.images.generate(model="gpt-image-1", prompt="a red fox", size="1536x1024")
    assert png(base64.b64decode(res.data[0].b64_json)) == (1536, 1024, b"\x0a\x0b\x0c")
    assert (res.size, res.output_format, res.usage.output_tokens) == ("1536x1024", "png", 1584)
    url = c.images.generate(model="dall-e-2", prompt="a cat", size="256x256", response_format="url").data[0].url
    with urllib.request.urlopen(url) as answer:
        assert answer.headers["content-type"] == "image/png"
        assert png(answer.read())[:2] == (256, 256)
    edited = c.images.edit(model="gpt-image-1", image=("in.png", b"\x89PNG", "image/png"), prompt="add a hat", size="1024x1024")
    assert png(base64.b64decode(edited.data[0].b64_json)) == (1024, 1024, b"\x0a\x0b\x0c")


def test_speech_is_a_wav_of_the_texts_length(mockllm: MockLLM) -> None:
    c = client(mockllm, scripted=False)
    audio = c.audio.speech.create(model="gpt-4o-mini-tts", voice="alloy", input="one two three four five", response_format="wav")
    with wave.open(io.BytesIO(audio.content)) as w:
        assert (w.getnchannels(), w.getframerate(), w.getsampwidth(), w.getnframes()) == (1, 24000, 2, 48000)


def test_transcriptions_in_every_format_and_streamed(mockllm: MockLLM) -> None:
    c = client(mockllm, scripted=False)
    clip = ("clip.wav", b"RIFF0000WAVE", "audio/wav")
    assert c.audio.transcriptions.create(model="whisper-1", file=clip).text == DEFAULT
    assert c.audio.transcriptions.create(model="whisper-1", file=clip, response_format="text") == DEFAULT + "\n"
    srt = c.audio.transcriptions.create(model="whisper-1", file=clip, response_format="srt")
    assert srt == f"1\n00:00:00,000 --> 00:00:03,600\n{DEFAULT}\n\n"
    vtt = c.audio.transcriptions.create(model="whisper-1", file=clip, response_format="vtt")
    assert vtt == f"WEBVTT\n\n00:00:00.000 --> 00:00:03.600\n{DEFAULT}\n\n"
    verbose = c.audio.transcriptions.create(model="whisper-1", file=clip, response_format="verbose_json", timestamp_granularities=["word"])
    assert (verbose.language, verbose.duration, len(verbose.words), verbose.words[0].word) == ("english", 3.6, 9, "The")
    events = list(c.audio.transcriptions.create(model="gpt-4o-mini-transcribe", file=clip, stream=True))
    assert "".join(e.delta for e in events if e.type == "transcript.text.delta") == DEFAULT
    assert events[-1].type == "transcript.text.done"


def test_scripted_rate_limit_then_the_transcript(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(MEDIA)
    c = client(mockllm)
    mockllm_file = ("meeting.wav", b"RIFF", "audio/wav")
    with pytest.raises(openai.RateLimitError):
        c.audio.transcriptions.create(model="whisper-1", file=mockllm_file)
    assert c.audio.transcriptions.create(model="whisper-1", file=mockllm_file).text == "Scripted meeting notes."
    assert [(e["endpoint"], e["step"], e["status"]) for e in mockllm.journal()] == [("transcriptions", "stt", 429), ("transcriptions", "stt", 200)]
    assert mockllm.journal()[0]["request"]["body"]["file"] == {"filename": "meeting.wav", "type": "audio/wav", "size": 4}
