//! VLM policies through a real screen (Xvfb + Chromium from .ci/setup), against local stand-ins
//! speaking each wire format exactly (tests named `*_standin_*`): chat completions with image
//! parts, Anthropic `tool_use`/`tool_result` with images, Responses `computer_call`. Each
//! stand-in replays a scripted sequence that fills a form on a local page; the page's server
//! sees the result. Malformed replies, 429s, timeouts and garbage are in the scripts.

use crate::providers::standin;

pub mod anthropic;
pub mod calibrate;
pub mod chat;
pub mod failures;
pub mod responses;
