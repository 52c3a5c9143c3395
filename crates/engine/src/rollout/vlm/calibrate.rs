//! `agents check SPEC --screen`: the coordinate calibration. A page shows one red disc at a known,
//! deliberately off-centre place; the model is asked to click it; the distance between the disc's
//! centre and where the click would land (after the model's coordinate space is applied) is the
//! error in screen pixels. A model trained on another space than the one configured misses by
//! hundreds of pixels.

use super::episode::LoopLimits;
use super::image::model_image;
use super::pointer;
use super::wire::{Conversation, Observation, Wire};
use crate::rollout::RolloutError;
use crate::screen::{BrowserSpec, Screen, ScreenConfig, ScreenSize};

/// The instruction the model gets.
pub const INSTRUCTION: &str =
    "Click the centre of the red circle. Reply with exactly one left click and nothing else.";

/// Where the disc's centre is on a `width × height` screen (71% across, 37% down).
pub fn target(width: u32, height: u32) -> (i32, i32) {
    (
        (width as f64 * 0.71).round() as i32,
        (height as f64 * 0.37).round() as i32,
    )
}

/// The page: a light background, a caption, and the disc (radius 24 px) at [`target`].
pub fn page(width: u32, height: u32) -> String {
    let (x, y) = target(width, height);
    format!(
        "<!doctype html><html><body style=\"margin:0;background:#f4f4f0;font:22px sans-serif\">\
         <p style=\"position:absolute;left:40px;top:30px\">Click the red circle.</p>\
         <div style=\"position:absolute;left:{}px;top:{}px;width:48px;height:48px;\
         border-radius:50%;background:#e01010\"></div></body></html>",
        x - 24,
        y - 24
    )
}

/// What the calibration measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// Screen size.
    pub screen: (u32, u32),
    /// Size of the image the model was sent.
    pub image: (u32, u32),
    /// The coordinate space, as configured.
    pub space: String,
    /// The disc's centre, screen pixels.
    pub target: (i32, i32),
    /// Where the model's click lands, screen pixels (`None`: it did not click).
    pub clicked: Option<(i32, i32)>,
    /// Distance between the two, pixels.
    pub error_px: Option<f64>,
    /// The model's reply, verbatim.
    pub reply: String,
    /// Why no click could be read, if so.
    pub problem: Option<String>,
}

/// Serves the page on a loopback port for as long as the returned guard lives.
fn serve(html: String) -> Result<(String, tokio::sync::oneshot::Sender<()>), RolloutError> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.set_nonblocking(true).map(|_| l))
        .map_err(|e| RolloutError::Infra(format!("binding the calibration page: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| RolloutError::Infra(format!("calibration page address: {e}")))?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::Builder::new()
        .name("tw-calibrate".into())
        .spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                    return;
                };
                let app = axum::Router::new().fallback(move || {
                    let html = html.clone();
                    async move { axum::response::Html(html) }
                });
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await;
            });
        })
        .map_err(|e| RolloutError::Infra(format!("starting the calibration page: {e}")))?;
    Ok((format!("http://{addr}/"), stop))
}

/// Runs the calibration on a fresh screen of `size`.
pub fn calibrate(
    wire: &dyn Wire,
    cfg: &ScreenConfig,
    size: ScreenSize,
    limits: &LoopLimits,
) -> Result<Calibration, RolloutError> {
    let (w, h) = (u32::from(size.width), u32::from(size.height));
    let (url, _stop) = serve(page(w, h))?;
    let allow = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let mut screen = Screen::start(cfg, size)?;
    let shot = screen.open_browser(cfg, &BrowserSpec { url, allow })?;
    let coords = wire
        .coords(w, h)
        .map_err(|e| RolloutError::Policy(format!("coordinate space: {e}")))?;
    let convo = Conversation {
        instruction: INSTRUCTION.into(),
        turns: vec![(
            Observation {
                image: Some(model_image(&shot, &coords)?),
                ..Default::default()
            },
            None,
        )],
    };
    let reply = wire
        .send(&convo, &coords, &limits.sampling, None)
        .map_err(|e| RolloutError::Infra(format!("the model failed: {e}")))?;
    let target = target(w, h);
    let (clicked, problem) = match &reply.actions {
        Ok(actions) => match actions.iter().find_map(pointer) {
            Some(p) => (Some(p), None),
            None => (
                None,
                Some(format!("the reply has no pointer action: {actions:?}")),
            ),
        },
        Err(e) => (None, Some(e.to_string())),
    };
    Ok(Calibration {
        screen: (w, h),
        image: coords.image,
        space: coords.space.to_string(),
        target,
        error_px: clicked.map(|(x, y)| {
            (f64::from(x - target.0).powi(2) + f64::from(y - target.1).powi(2)).sqrt()
        }),
        clicked,
        reply: reply.text,
        problem,
    })
}
