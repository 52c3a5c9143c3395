//! The terminal's graphics protocol for screenshots (ratatui-image's [`Picker`]), queried once at
//! start-up in the real terminal. The query writes escape sequences and reads the answers from
//! stdin on a thread that only stops when the terminal answers; where the answer may never come it
//! is skipped and half-blocks are used:
//! - inside tmux or screen (`TMUX` set, or `TERM` starting with `screen`/`tmux`): tmux drops the
//!   wrapped queries unless `allow-passthrough` is on, and the reader would then swallow keys;
//! - `TW_TUI_GRAPHICS=halfblocks` (or `off`) asks for half-blocks explicitly.

use std::cell::{Cell, RefCell};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};

use ratatui::layout::Size;
use ratatui_image::picker::Picker;
use ratatui_image::protocol::Protocol;
use ratatui_image::Resize;

use super::data::DataUpdate;
use super::filmstrip_data::FrameKey;

/// Whether the environment allows the terminal query.
pub fn query_allowed(env: impl Fn(&str) -> Option<String>) -> bool {
    let forced_off =
        env("TW_TUI_GRAPHICS").is_some_and(|v| matches!(v.as_str(), "halfblocks" | "off" | "0"));
    let multiplexed = env("TMUX").is_some_and(|v| !v.is_empty())
        || env("TERM").is_some_and(|t| t.starts_with("screen") || t.starts_with("tmux"));
    !forced_off && !multiplexed
}

/// The picker for this terminal, or `None` (half-blocks) when the query is skipped or fails.
/// Call after entering the alternate screen and before reading terminal events.
pub fn terminal_picker() -> Option<Picker> {
    if !query_allowed(|k| std::env::var(k).ok()) {
        return None;
    }
    Picker::from_query_stdio().ok()
}

/// A screenshot encoded for the terminal: its frame, area (columns, rows), protocol.
pub type Encoded = (FrameKey, (u16, u16), Protocol);

type Job = (FrameKey, (u16, u16), image::DynamicImage, Picker);
/// Where the background thread leaves its latest result.
type Slot = Arc<Mutex<Option<Encoded>>>;

/// The encoded screenshot of the trial shown, for the area it was encoded for. Encoding (resize
/// plus the protocol's own encoding) takes tens of ms for a large image, so in the real terminal it
/// runs on a background thread ([`ImageCache::start_background`]) and the frame draws a
/// placeholder until the result arrives (the thread then sends [`DataUpdate::ScreenshotReady`]
/// so the loop redraws). Without the thread (tests) it encodes during the draw.
#[derive(Default)]
pub struct ImageCache {
    ready: RefCell<Option<Encoded>>,
    requested: RefCell<Option<(FrameKey, (u16, u16))>>,
    /// Encodings handed to the background thread so far (each key is requested once).
    queued: Cell<usize>,
    background: Option<(Sender<Job>, Slot)>,
}

impl std::fmt::Debug for ImageCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let key = self
            .ready
            .borrow()
            .as_ref()
            .map(|(id, size, _)| (*id, *size));
        f.debug_struct("ImageCache")
            .field("ready", &key)
            .field("background", &self.background.is_some())
            .finish()
    }
}

/// What the view can draw now.
pub enum Lookup<'a> {
    /// The encoded image.
    Ready(std::cell::Ref<'a, Protocol>),
    /// Being encoded in the background.
    Pending,
    /// Encoding failed.
    Failed(String),
}

fn encode(job: Job) -> Result<Encoded, String> {
    let (id, size, img, picker) = job;
    picker
        .new_protocol(img, Size::new(size.0, size.1), Resize::Fit(None))
        .map(|p| (id, size, p))
        .map_err(|e| e.to_string())
}

impl ImageCache {
    /// Encodes on a background thread from now on; `notify` gets a
    /// [`DataUpdate::ScreenshotReady`] after each encoding.
    pub fn start_background(&mut self, notify: Sender<DataUpdate>) -> std::io::Result<()> {
        let (tx, rx) = mpsc::channel::<Job>();
        let slot: Slot = Arc::default();
        let out = Arc::clone(&slot);
        std::thread::Builder::new()
            .name("tw-image".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    // Only the newest request matters.
                    let job = rx.try_iter().last().unwrap_or(first);
                    if let Ok(e) = encode(job) {
                        if let Ok(mut s) = out.lock() {
                            *s = Some(e);
                        }
                    }
                    if notify.send(DataUpdate::ScreenshotReady).is_err() {
                        return;
                    }
                }
            })?;
        self.background = Some((tx, slot));
        Ok(())
    }

    /// The frame and area of the encoded image held, if any.
    pub fn ready_key(&self) -> Option<(FrameKey, (u16, u16))> {
        self.ready
            .borrow()
            .as_ref()
            .map(|(id, size, _)| (*id, *size))
    }

    /// How many encodings were handed to the background thread so far.
    pub fn queued(&self) -> usize {
        self.queued.get()
    }

    /// Forgets the encoded image (the next lookup encodes again).
    pub fn clear(&self) {
        self.ready.borrow_mut().take();
        self.requested.borrow_mut().take();
        if let Some((_, slot)) = &self.background {
            if let Ok(mut s) = slot.lock() {
                s.take();
            }
        }
    }

    /// The encoded image of frame `id` for an area of `size` cells: cached, taken from the
    /// background thread, encoded now (no thread), or requested.
    pub fn lookup(
        &self,
        id: FrameKey,
        size: (u16, u16),
        img: &image::DynamicImage,
        picker: Option<&Picker>,
    ) -> Lookup<'_> {
        let fresh =
            |e: &Option<Encoded>| e.as_ref().is_some_and(|(i, s, _)| *i == id && *s == size);
        if !fresh(&self.ready.borrow()) {
            let picker = picker.cloned().unwrap_or_else(Picker::halfblocks);
            let job = (id, size, img.clone(), picker);
            match &self.background {
                None => match encode(job) {
                    Ok(e) => *self.ready.borrow_mut() = Some(e),
                    Err(e) => return Lookup::Failed(e),
                },
                Some((tx, slot)) => {
                    let done = slot
                        .lock()
                        .ok()
                        .and_then(|mut s| s.take_if(|e| e.0 == id && e.1 == size));
                    match done {
                        Some(e) => *self.ready.borrow_mut() = Some(e),
                        None => {
                            if *self.requested.borrow() != Some((id, size)) {
                                *self.requested.borrow_mut() = Some((id, size));
                                if tx.send(job).is_ok() {
                                    self.queued.set(self.queued.get() + 1);
                                }
                            }
                            return Lookup::Pending;
                        }
                    }
                }
            }
        }
        match std::cell::Ref::filter_map(self.ready.borrow(), |e| e.as_ref().map(|(_, _, p)| p)) {
            Ok(p) => Lookup::Ready(p),
            Err(_) => Lookup::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tmux_screen_and_the_override_skip_the_query() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(query_allowed(env(&[("TERM", "xterm-kitty")])));
        assert!(!query_allowed(env(&[
            ("TERM", "xterm"),
            ("TMUX", "/tmp/t,1,0")
        ])));
        assert!(!query_allowed(env(&[("TERM", "screen-256color")])));
        assert!(!query_allowed(env(&[("TERM", "tmux-256color")])));
        assert!(!query_allowed(env(&[("TW_TUI_GRAPHICS", "halfblocks")])));
    }

    #[test]
    fn background_encoding_is_pending_then_ready_and_notifies() {
        let img = image::DynamicImage::ImageRgb8(image::RgbImage::new(200, 100));
        let (tx, rx) = mpsc::channel();
        let mut cache = ImageCache::default();
        cache.start_background(tx).expect("thread");
        // Nothing was requested before, so the first lookup can only be pending.
        assert!(matches!(
            cache.lookup((7, 0), (20, 5), &img, None),
            Lookup::Pending
        ));
        // A repeated lookup is pending or (when the thread already finished) ready; either way it
        // must not queue a second encoding of the same key.
        let _ = cache.lookup((7, 0), (20, 5), &img, None);
        assert_eq!(cache.queued(), 1, "one encoding per key");
        let note = rx.recv_timeout(std::time::Duration::from_secs(60));
        assert!(matches!(note, Ok(DataUpdate::ScreenshotReady)));
        // The thread fills the slot before it notifies, so the result is there now, and cached.
        assert!(matches!(
            cache.lookup((7, 0), (20, 5), &img, None),
            Lookup::Ready(_)
        ));
        assert_eq!(cache.ready_key(), Some(((7, 0), (20, 5))));
        assert!(matches!(
            cache.lookup((7, 0), (20, 5), &img, None),
            Lookup::Ready(_)
        ));
        assert_eq!(cache.queued(), 1, "cached: no second encoding was queued");
        // A different area is a new key: one more encoding.
        let _ = cache.lookup((7, 0), (10, 5), &img, None);
        assert_eq!(cache.queued(), 2);
        // Synchronous without the thread.
        let sync = ImageCache::default();
        assert!(matches!(
            sync.lookup((1, 0), (10, 4), &img, None),
            Lookup::Ready(_)
        ));
    }
}
