//! The VLM teacher as a [`Policy`]: provisions a screen for the trial, runs the step loop on it
//! and hands the harness the steps, the per-turn records and the usage. The spec picks the wire:
//!
//! | spec | API |
//! |---|---|
//! | `vlm:openai:MODEL[@BASE_URL]` | chat completions, text actions ([`ActionFormat`]) |
//! | `anthropic:MODEL[@BASE_URL]` | Messages API, `computer_20250124` tool |
//! | `openai-responses:MODEL[@BASE_URL]` | Responses API, `computer_use_preview` tool |

use std::sync::Arc;

use super::anthropic::AnthropicWire;
use super::chat::ChatWire;
use super::config::VlmConfig;
use super::episode::{run_episode_on, Ending, LoopLimits};
use super::error::SpecError;
use super::live::{LiveScreen, TaskScreen};
use super::responses::ResponsesWire;
use super::wire::Wire;
use super::{ActionFormat, CoordSpace};
use crate::rollout::policy::{Policy, PolicyCtx, PolicyKind, PolicyRun};
use crate::rollout::screen::ComputerAction;
use crate::rollout::ui_plan::Step;
use crate::rollout::RolloutError;
use crate::screen::{BrowserSpec, Screen, ScreenConfig};
use tuplewright_models::providers::{ProviderConfig, ProviderKind};

/// Where a trial's screen comes from: the one function to point at the web apps' UIs.
pub trait ScreenProvision: Send + Sync {
    /// A live screen showing the trial's environment at s_init.
    fn provision(&self, ctx: &PolicyCtx<'_>) -> Result<LiveScreen, RolloutError>;
}

/// Chromium in kiosk mode on a URL template (`{addr}`, `{sid}`, `{app}` from the trial's first
/// web app), on a fresh Xvfb display of the app's configured size.
pub struct ChromiumScreen {
    /// `[screen]` settings.
    pub cfg: ScreenConfig,
    /// The page, e.g. `http://{addr}/ui/?sid={sid}`; a plain URL is used as it is.
    pub url: String,
}

impl ScreenProvision for ChromiumScreen {
    fn provision(&self, ctx: &PolicyCtx<'_>) -> Result<LiveScreen, RolloutError> {
        if self.url.trim().is_empty() {
            return Err(RolloutError::Task(
                "this environment has no screen: set [rollout.vlm] screen_url to the page a VLM \
                 policy should see"
                    .into(),
            ));
        }
        let web = ctx.env.web.first();
        let app = web.map(|w| w.app.clone()).unwrap_or_default();
        let url = self
            .url
            .replace(
                "{addr}",
                &web.map(|w| w.addr.to_string()).unwrap_or_default(),
            )
            .replace("{sid}", &ctx.env.sid)
            .replace("{app}", &app);
        open_chromium(&self.cfg, &url, &app).map(|s| LiveScreen::Display(Box::new(s)))
    }
}

/// Starts a screen of `app`'s size and opens `url` in Chromium (only its origin reachable),
/// waiting until the page is drawn.
pub fn open_chromium(cfg: &ScreenConfig, url: &str, app: &str) -> Result<Screen, RolloutError> {
    let allow = reqwest::Url::parse(url)
        .ok()
        .and_then(|u| Some(format!("{}:{}", u.host_str()?, u.port_or_known_default()?)))
        .ok_or_else(|| RolloutError::Task(format!("screen_url `{url}` is not an http(s) URL")))?;
    let mut screen = Screen::start(cfg, cfg.size_for(app))?;
    screen.open_browser(
        cfg,
        &BrowserSpec {
            url: url.to_string(),
            allow,
        },
    )?;
    Ok(screen)
}

/// A VLM acting through a screen.
pub struct VlmPolicy {
    wire: Arc<dyn Wire>,
    limits: LoopLimits,
    screen: Arc<dyn ScreenProvision>,
}

impl VlmPolicy {
    /// A policy from its parts.
    pub fn new(wire: Arc<dyn Wire>, limits: LoopLimits, screen: Arc<dyn ScreenProvision>) -> Self {
        VlmPolicy {
            wire,
            limits,
            screen,
        }
    }
}

impl Policy for VlmPolicy {
    fn name(&self) -> String {
        self.wire.name()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Teacher
    }
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        let mut live = self.screen.provision(ctx)?;
        let ep = live.drive(|screen| {
            run_episode_on(
                screen,
                self.wire.as_ref(),
                &ctx.brief.instruction,
                &self.limits,
                ctx.cancel,
                ctx.feed,
            )
        })?;
        // A dialog the model left open on a desktop application: infrastructure, never a score
        // (quoted through the default `[screen]` view when the provision's own is not known).
        crate::rollout::desktop_apps::no_dialog_left(&mut live, &ScreenConfig::default())?;
        if let Ending::AskedUser { question } = &ep.ending {
            return Err(RolloutError::Policy(format!(
                "asked the user (call_user is not allowed during rollouts): {question}"
            )));
        }
        let transcript: Vec<String> = ep
            .turns
            .iter()
            .filter_map(|t| t["reply"].as_str().map(str::to_string))
            .collect();
        // The trial's steps open with the first observation (a `screenshot` at 0 ms), so the
        // stored trial holds every screenshot the model saw (exports, the filmstrip); the
        // episode fed it first too, so live and stored steps share their numbering.
        let mut steps = Vec::with_capacity(ep.steps.len() + 1);
        steps.push(Step {
            action: ComputerAction::Screenshot,
            at_ms: 0,
            duration_ms: 0,
            error: None,
            settle_ms: None,
            screenshot_png: Some(ep.first_screenshot),
        });
        steps.extend(ep.steps);
        Ok(PolicyRun {
            actions: ep.turns,
            transcript: tuplewright_models::providers::head_tail(&transcript.join("\n---\n"), 8000),
            usage: ep.usage,
            steps,
        })
    }
}

/// Whether a spec names a VLM policy.
pub fn is_vlm_spec(spec: &str) -> bool {
    ["vlm:", "anthropic:", "openai-responses:"]
        .iter()
        .any(|p| spec.starts_with(p))
}

/// The wire a spec names, with `[rollout.vlm]` applied.
pub fn wire_from_spec(spec: &str, cfg: &VlmConfig) -> Result<Arc<dyn Wire>, SpecError> {
    let defaults = cfg.provider_defaults();
    let provider = |rest: &str| {
        ProviderConfig::from_spec(rest, &defaults).map_err(|source| SpecError::Provider {
            spec: spec.to_string(),
            source: Box::new(source),
        })
    };
    let space = |fallback: CoordSpace| -> Result<CoordSpace, SpecError> {
        if cfg.coords.trim().is_empty() {
            Ok(fallback)
        } else {
            Ok(cfg.coords.trim().parse()?)
        }
    };
    if let Some(rest) = spec.strip_prefix("vlm:") {
        let p = provider(rest)?;
        if p.kind != ProviderKind::Openai {
            return Err(SpecError::NotOpenai(spec.to_string()));
        }
        let (family_format, family_space) = ActionFormat::for_model(&p.model);
        let format = if cfg.format.trim().is_empty() {
            family_format
        } else {
            cfg.format.trim().parse()?
        };
        let wire = ChatWire::new(p, format, space(family_space)?)
            .map_err(|e| SpecError::Wire(Box::new(e)))?;
        return Ok(Arc::new(wire));
    }
    if spec.starts_with("anthropic:") {
        let wire = AnthropicWire::new(
            provider(spec)?,
            space(CoordSpace::Pixels)?,
            &cfg.anthropic_tool,
        )
        .map_err(|e| SpecError::Wire(Box::new(e)))?;
        return Ok(Arc::new(wire));
    }
    if let Some(rest) = spec.strip_prefix("openai-responses:") {
        let p = provider(&format!("openai:{rest}"))?;
        let wire = ResponsesWire::new(p, space(CoordSpace::Pixels)?)
            .map_err(|e| SpecError::Wire(Box::new(e)))?;
        return Ok(Arc::new(wire));
    }
    Err(SpecError::UnknownPolicy(spec.to_string()))
}

/// The VLM policy a spec names, on the task's own screen (or `[rollout.vlm] screen_url`).
pub fn vlm_policy(
    spec: &str,
    cfg: &VlmConfig,
    screen: &ScreenConfig,
) -> Result<VlmPolicy, SpecError> {
    let mut limits = cfg.limits();
    limits.display = screen.settle();
    Ok(VlmPolicy::new(
        wire_from_spec(spec, cfg)?,
        limits,
        Arc::new(TaskScreen {
            cfg: screen.clone(),
            url: cfg.screen_url.clone(),
        }),
    ))
}
