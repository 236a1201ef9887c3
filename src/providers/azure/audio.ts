/**
 * Azure OpenAI audio: `POST /openai/deployments/{deployment}/audio/speech`, `/audio/transcriptions` and
 * `/audio/translations` (`?api-version=…`), and their `/openai/v1/audio/…` forms. OpenAI's parse, audio bytes and
 * transcripts unchanged behind Azure's gateway: no public recording shows Azure adding anything to their bodies.
 */
import { openaiSpeech, openaiTranscriptions } from "../openai/audio";
import type { SpeechRequest } from "../openai/audio/speech";
import type { TranscriptionRequest } from "../openai/audio/transcribe-parse";
import type { ProviderSurface } from "../types";
import { azureCommon } from "./common";
import { azureParse, type AzureWire } from "./wire";

export const azureSpeech: ProviderSurface<AzureWire<SpeechRequest>> = {
  ...openaiSpeech,
  ...azureCommon<SpeechRequest>("audio/speech"),
  parse: azureParse(openaiSpeech.parse, "audio/speech"),
};

export const azureTranscriptions: ProviderSurface<AzureWire<TranscriptionRequest>> = {
  ...openaiTranscriptions,
  ...azureCommon<TranscriptionRequest>("audio/transcriptions", "audio/translations"),
  parse: azureParse(openaiTranscriptions.parse, "audio/transcriptions"),
};
