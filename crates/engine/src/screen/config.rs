//! `[screen]` in tuplewright.toml: display size (default and per app), programs and deadlines.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A display size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScreenSize {
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
}

impl Default for ScreenSize {
    fn default() -> Self {
        Self {
            width: 1280,
            height: 800,
        }
    }
}

/// `[screen]` settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScreenConfig {
    /// Display width in pixels (every app without its own size).
    pub width: u16,
    /// Display height in pixels.
    pub height: u16,
    /// Per-app sizes, e.g. `[screen.apps.mail] width = 1440` … (both keys required).
    pub apps: BTreeMap<String, ScreenSize>,
    /// The X server program.
    pub xvfb: PathBuf,
    /// The browser program for web apps.
    pub chromium: PathBuf,
    /// How long the X server may take to come up, milliseconds.
    pub display_timeout_ms: u64,
    /// How long an app may take to draw something other than a blank screen, milliseconds.
    pub ready_timeout_ms: u64,
    /// Uid (and gid) that programs on the display run as when the engine runs as root; 0 = the
    /// engine's own uid. Default 65534 (nobody).
    pub app_uid: u32,
    /// The files desktop's programs (`[screen.desktop]`).
    pub desktop: super::DesktopPrograms,
    /// After an action, the display counts as settled once nothing was drawn for this long,
    /// milliseconds (0 = capture at once).
    pub settle_quiet_ms: u64,
    /// The longest settle wait after one action, milliseconds.
    pub settle_max_ms: u64,
}

impl Default for ScreenConfig {
    fn default() -> Self {
        let size = ScreenSize::default();
        Self {
            width: size.width,
            height: size.height,
            apps: BTreeMap::new(),
            xvfb: PathBuf::from("Xvfb"),
            chromium: PathBuf::from("chromium"),
            display_timeout_ms: 10_000,
            ready_timeout_ms: 15_000,
            app_uid: 65534,
            desktop: super::DesktopPrograms::default(),
            settle_quiet_ms: 200,
            settle_max_ms: 3000,
        }
    }
}

impl ScreenConfig {
    /// The display size for `app` (its own entry, else the default size).
    pub fn size_for(&self, app: &str) -> ScreenSize {
        self.apps.get(app).copied().unwrap_or(ScreenSize {
            width: self.width,
            height: self.height,
        })
    }

    /// An explicit size (e.g. `screen shot --width/--height`) for every screen: the default and
    /// every per-app entry, so it wins whichever app the task's screen is of.
    pub fn override_size(&mut self, width: Option<u16>, height: Option<u16>) {
        if let Some(w) = width {
            self.width = w;
            self.apps.values_mut().for_each(|s| s.width = w);
        }
        if let Some(h) = height {
            self.height = h;
            self.apps.values_mut().for_each(|s| s.height = h);
        }
    }

    /// The settle wait after each action ([`super::Screen::settle`]).
    pub fn settle(&self) -> super::Settle {
        super::Settle {
            quiet: std::time::Duration::from_millis(self.settle_quiet_ms),
            max: std::time::Duration::from_millis(self.settle_max_ms),
            expect_change: false,
        }
    }

    /// Checks the sizes: each side between 64 and 8192 pixels; names the offending key.
    pub fn validate(&self) -> Result<(), String> {
        let check = |key: &str, s: ScreenSize| {
            for (side, v) in [("width", s.width), ("height", s.height)] {
                if !(64..=8192).contains(&v) {
                    return Err(format!("[{key}] {side} = {v}: must be between 64 and 8192"));
                }
            }
            Ok(())
        };
        check(
            "screen",
            ScreenSize {
                width: self.width,
                height: self.height,
            },
        )?;
        for (app, s) in &self.apps {
            check(&format!("screen.apps.{app}"), *s)?;
        }
        if self.settle_max_ms > 60_000 || self.settle_quiet_ms > self.settle_max_ms {
            return Err(format!(
                "[screen] settle_quiet_ms = {} and settle_max_ms = {}: the quiet period must not \
                 exceed the bound, and the bound must be at most 60000",
                self.settle_quiet_ms, self.settle_max_ms
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use std::path::Path;

    #[test]
    fn screen_table_sets_default_and_per_app_sizes_and_bad_sizes_are_named() {
        let c = Config::parse(
            "[screen]\nwidth = 1024\n[screen.apps.mail]\nwidth = 1440\nheight = 900\n",
            Path::new("tw.toml"),
        )
        .unwrap();
        let s = &c.screen;
        assert_eq!(
            (s.size_for("mail").width, s.size_for("mail").height),
            (1440, 900)
        );
        assert_eq!(
            (
                s.size_for("team-chat").width,
                s.size_for("team-chat").height
            ),
            (1024, 800)
        );
        assert!(s.validate().is_ok());
        let bad = Config::parse(
            "[screen.apps.mail]\nwidth = 10\nheight = 900\n",
            Path::new("t"),
        )
        .unwrap();
        assert_eq!(
            bad.screen.validate().unwrap_err(),
            "[screen.apps.mail] width = 10: must be between 64 and 8192"
        );
        let err = Config::parse("[screen]\nwidht = 5\n", Path::new("t")).unwrap_err();
        assert!(err.to_string().contains("screen.widht"), "{err}");
    }
}
