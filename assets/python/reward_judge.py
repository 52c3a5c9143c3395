"""tuplewright's stand-in for the public `reward_judge` helper (`from reward_judge import
call_llm_judge`), importable from the script's path and as /tmp/reward_judge.py.

Both call shapes seen in published rewards work: keywords
`call_llm_judge(task_instruction=..., success_criteria=..., state_excerpt=..., max_tokens=300)` and
the three positional arguments `call_llm_judge(instruction, criteria, excerpt)`.

This harness has no judge configured for rewards, so a call cannot be answered. The public helper
returned 0.0 then, which reads as "the agent did not earn it"; this one writes a line on stderr that
the harness reports as an INFRASTRUCTURE failure of the reward run (never a score, even when the
script catches the exception) and raises JudgeUnavailable.
"""
import os

_MARKER = "tuplewright-sandbox: infra: "


class JudgeUnavailable(RuntimeError):
    """No LLM judge is reachable from this sandbox."""


def _unavailable(what):
    msg = (
        what + " was called, but no reward judge is configured in this harness: the reward run "
        "is an infrastructure failure, not a score. Rewrite the component without the judge, "
        "or run the bundle where a judge is wired in (docs/open-environments.md)."
    )
    try:
        os.write(2, (_MARKER + msg + "\n").encode("utf-8", "replace"))
    except OSError:
        pass
    raise JudgeUnavailable(msg)


def call_llm_judge(task_instruction=None, success_criteria=None, state_excerpt=None,
                   max_tokens=300, **_more):
    """Score a state against success criteria in [0, 1] (see the module doc)."""
    _unavailable("reward_judge.call_llm_judge")


def call_vision_judge(task_instruction=None, initial_image=None, result_image=None,
                      success_criteria="", max_tokens=400, **_more):
    """Score a before/after image pair in [0, 1] (see the module doc)."""
    _unavailable("reward_judge.call_vision_judge")


def call_video_vision_judge(task_instruction=None, initial_video=None, result_video=None,
                            success_criteria="", num_frames=3, max_tokens=500, **_more):
    """Score a before/after video pair in [0, 1] (see the module doc)."""
    _unavailable("reward_judge.call_video_vision_judge")
