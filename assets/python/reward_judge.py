"""tuplewright's stand-in for the public `reward_judge` helper (`from reward_judge import
call_llm_judge`), importable from the script's path and as /tmp/reward_judge.py.

Both call shapes seen in published rewards work: keywords
`call_llm_judge(task_instruction=..., success_criteria=..., state_excerpt=..., max_tokens=300)` and
the three positional arguments `call_llm_judge(instruction, criteria, excerpt)`.

When the harness has a judge configured (`[judge] model`), `call_llm_judge` sends the call over
the unix socket named by TW_JUDGE_SOCKET (the sandbox has no network; the harness forwards it to the
model) and returns the judge's score in [0, 1]. When it has none, or the call fails (judge down,
timeout, too many calls, an unreadable verdict), the public helper returned 0.0, which reads as "the
agent did not earn it"; this one writes a line on stderr that the harness reports as an
INFRASTRUCTURE failure of the reward run (never a score, even when the script catches the
exception) and raises JudgeUnavailable. The harness records the failure on its side too.
"""
import json
import os
import socket

_MARKER = "tuplewright-sandbox: infra: "


class JudgeUnavailable(RuntimeError):
    """No LLM judge is reachable from this sandbox."""


def _unavailable(what):
    msg = (
        what + " was called, but no reward judge is configured in this harness: the reward run "
        "is an infrastructure failure, not a score. Name a judge model in tuplewright.toml "
        "([judge] model = \"openai:MODEL\"), or rewrite the component without the judge "
        "(docs/open-environments.md)."
    )
    try:
        os.write(2, (_MARKER + msg + "\n").encode("utf-8", "replace"))
    except OSError:
        pass
    raise JudgeUnavailable(msg)


def _failed(what, why):
    msg = (
        what + " failed: " + why + ". The reward run is an infrastructure failure, not a score."
    )
    try:
        os.write(2, (_MARKER + msg + "\n").encode("utf-8", "replace"))
    except OSError:
        pass
    raise JudgeUnavailable(msg)


def _text(value):
    if value is None or isinstance(value, str):
        return value or ""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def _ask(what, request):
    path = os.environ.get("TW_JUDGE_SOCKET")
    if not path:
        _unavailable(what)
    wait = float(os.environ.get("TW_JUDGE_TIMEOUT", "120")) + 10.0
    data = b""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(wait)
            s.connect(path)
            s.sendall(json.dumps(request).encode("utf-8") + b"\n")
            s.shutdown(socket.SHUT_WR)
            while len(data) < (1 << 20):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        reply = json.loads(data.decode("utf-8"))
    except (OSError, ValueError) as e:
        _failed(what, "no answer from the harness's judge channel (%s)" % e)
    if not reply.get("ok"):
        _failed(what, str(reply.get("error", "the judge gave no reason")))
    return float(reply["score"])


def call_llm_judge(task_instruction=None, success_criteria=None, state_excerpt=None,
                   max_tokens=300, **_more):
    """Score a state against success criteria in [0, 1] (see the module doc)."""
    return _ask("reward_judge.call_llm_judge", {
        "fn": "call_llm_judge",
        "task_instruction": _text(task_instruction),
        "success_criteria": _text(success_criteria),
        "state_excerpt": _text(state_excerpt),
        "max_tokens": max_tokens,
    })


def call_vision_judge(task_instruction=None, initial_image=None, result_image=None,
                      success_criteria="", max_tokens=400, **_more):
    """Score a before/after image pair in [0, 1] (see the module doc)."""
    _unavailable("reward_judge.call_vision_judge")


def call_video_vision_judge(task_instruction=None, initial_video=None, result_video=None,
                            success_criteria="", num_frames=3, max_tokens=500, **_more):
    """Score a before/after video pair in [0, 1] (see the module doc)."""
    _unavailable("reward_judge.call_video_vision_judge")
