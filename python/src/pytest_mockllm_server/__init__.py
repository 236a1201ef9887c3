"""pytest-mockllm-server: a `mockllm` fixture that gives each test its own session on a scripted fake LLM server."""

from .admin import AdminClient, MockLLMError, MockLLMVerifyError
from .fixture import MockLLM
from .plugin import MockLLMServer

__all__ = ["AdminClient", "MockLLM", "MockLLMError", "MockLLMServer", "MockLLMVerifyError"]
__version__ = "0.1.0"
