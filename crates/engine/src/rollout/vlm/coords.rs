//! Coordinate spaces: how the numbers a model writes map to screen pixels, and the size of the
//! screenshot it is sent. Coordinate bugs are the most reported failure of computer-use agents, so
//! every provider declares its space explicitly and `agents check --screen` measures it.
//!
//! | space | image sent | a model's `(x, y)` means |
//! |---|---|---|
//! | `pixels` | native | screen pixels |
//! | `smart-resize[:F:MIN:MAX]` | resized by Qwen's `smart_resize` | pixels of the resized image |
//! | `rel1000` | native | thousandths of the width and height (0–999) |
//! | `rel1` | native | fractions of the width and height (0–1) |

use std::fmt;
use std::str::FromStr;

use super::error::CoordError;

/// Qwen2.5-VL's image factor (patch 14 × merge 2).
pub const QWEN25_FACTOR: u32 = 28;
/// Qwen2.5-VL's default minimum pixels (`4 * 28 * 28`).
pub const QWEN25_MIN_PIXELS: u64 = 4 * 28 * 28;
/// Qwen2.5-VL's default maximum pixels (`16384 * 28 * 28`).
pub const QWEN25_MAX_PIXELS: u64 = 16384 * 28 * 28;
/// The paper's vision budget (C.1.1): factor 32, min `64·32²`, max `2048·32²`.
pub const PAPER_FACTOR: u32 = 32;
/// The paper's minimum pixels.
pub const PAPER_MIN_PIXELS: u64 = 64 * 32 * 32;
/// The paper's maximum pixels.
pub const PAPER_MAX_PIXELS: u64 = 2048 * 32 * 32;
/// Qwen's largest aspect ratio.
pub const MAX_RATIO: f64 = 200.0;

/// Where a model's coordinates live.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CoordSpace {
    /// Screen pixels; the screenshot is sent at its native size.
    Pixels,
    /// Pixels of the screenshot after Qwen's `smart_resize` (the image is sent resized).
    SmartResize {
        /// Side lengths are multiples of this.
        factor: u32,
        /// Smallest pixel count.
        min_pixels: u64,
        /// Largest pixel count.
        max_pixels: u64,
    },
    /// Relative 0–999 (`x / 1000 × width`); native image.
    Relative1000,
    /// Relative 0–1 (`x × width`); native image.
    Relative1,
}

/// Qwen's `smart_resize(height, width, factor, min_pixels, max_pixels)` exactly as
/// `qwen_vl_utils` writes it (Python's `round` rounds half to even): returns `(height, width)`,
/// both multiples of `factor`, with a pixel count within the bounds and the aspect ratio kept.
pub fn smart_resize(
    height: u32,
    width: u32,
    factor: u32,
    min_pixels: u64,
    max_pixels: u64,
) -> Result<(u32, u32), CoordError> {
    if height == 0 || width == 0 || factor == 0 {
        return Err(CoordError::NotPositive {
            width,
            height,
            factor,
        });
    }
    let (h, w, f) = (f64::from(height), f64::from(width), f64::from(factor));
    if h.max(w) / h.min(w) > MAX_RATIO {
        return Err(CoordError::AspectRatio {
            max: MAX_RATIO,
            got: h.max(w) / h.min(w),
        });
    }
    let round_by = |n: f64| (n / f).round_ties_even() * f;
    let floor_by = |n: f64| (n / f).floor() * f;
    let ceil_by = |n: f64| (n / f).ceil() * f;
    let mut h_bar = f.max(round_by(h));
    let mut w_bar = f.max(round_by(w));
    if h_bar * w_bar > max_pixels as f64 {
        let beta = (h * w / max_pixels as f64).sqrt();
        h_bar = f.max(floor_by(h / beta));
        w_bar = f.max(floor_by(w / beta));
    } else if h_bar * w_bar < min_pixels as f64 {
        let beta = (min_pixels as f64 / (h * w)).sqrt();
        h_bar = ceil_by(h * beta);
        w_bar = ceil_by(w * beta);
    }
    Ok((h_bar as u32, w_bar as u32))
}

/// A coordinate space applied to one screen size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coords {
    /// The space.
    pub space: CoordSpace,
    /// Screen width in pixels.
    pub screen_w: u32,
    /// Screen height in pixels.
    pub screen_h: u32,
    /// Size of the image the model is sent (`(width, height)`).
    pub image: (u32, u32),
}

impl Coords {
    /// The space on a screen of `width × height`; an impossible smart resize is an error.
    pub fn new(space: CoordSpace, width: u32, height: u32) -> Result<Coords, CoordError> {
        let image = match space {
            CoordSpace::SmartResize {
                factor,
                min_pixels,
                max_pixels,
            } => {
                let (h, w) = smart_resize(height, width, factor, min_pixels, max_pixels)?;
                (w, h)
            }
            _ => (width, height),
        };
        Ok(Coords {
            space,
            screen_w: width,
            screen_h: height,
            image,
        })
    }

    /// Whether the screenshot must be resized before it is sent.
    pub fn resizes(&self) -> bool {
        self.image != (self.screen_w, self.screen_h)
    }

    /// Scale factors from model units to screen pixels, and the largest model value.
    fn scale(&self) -> (f64, f64) {
        let (w, h) = (f64::from(self.screen_w), f64::from(self.screen_h));
        match self.space {
            CoordSpace::Pixels => (1.0, 1.0),
            CoordSpace::SmartResize { .. } => {
                (w / f64::from(self.image.0), h / f64::from(self.image.1))
            }
            CoordSpace::Relative1000 => (w / 1000.0, h / 1000.0),
            CoordSpace::Relative1 => (w, h),
        }
    }

    /// A model's point in screen pixels (rounded to the nearest pixel). Relative spaces clamp
    /// their upper edge (`1.0`, `999.9`) onto the last pixel; anything else out of range is left
    /// for the screen to refuse with an error the model reads.
    pub fn to_screen(&self, x: f64, y: f64) -> Result<(i32, i32), CoordError> {
        if !x.is_finite() || !y.is_finite() {
            return Err(CoordError::NotFinite { x, y });
        }
        let (sx, sy) = self.scale();
        let (mut px, mut py) = ((x * sx).round(), (y * sy).round());
        if matches!(self.space, CoordSpace::Relative1 | CoordSpace::Relative1000) {
            let (w, h) = (f64::from(self.screen_w), f64::from(self.screen_h));
            if (w..=w + sx).contains(&px) {
                px = w - 1.0;
            }
            if (h..=h + sy).contains(&py) {
                py = h - 1.0;
            }
        }
        if px.abs() > 1e6 || py.abs() > 1e6 {
            return Err(CoordError::FarOutside { x, y });
        }
        Ok((px as i32, py as i32))
    }

    /// A screen pixel in the model's units (the inverse of [`Coords::to_screen`], for stand-ins
    /// and exports): the centre of the pixel, so a round trip lands on it.
    pub fn to_model(&self, x: i32, y: i32) -> (f64, f64) {
        let (sx, sy) = self.scale();
        match self.space {
            CoordSpace::Pixels => (f64::from(x), f64::from(y)),
            CoordSpace::SmartResize { .. } | CoordSpace::Relative1000 => (
                (f64::from(x) / sx).round().min(self.max_model().0),
                (f64::from(y) / sy).round().min(self.max_model().1),
            ),
            CoordSpace::Relative1 => (
                ((f64::from(x) + 0.5) / sx * 1e4).round() / 1e4,
                ((f64::from(y) + 0.5) / sy * 1e4).round() / 1e4,
            ),
        }
    }

    fn max_model(&self) -> (f64, f64) {
        match self.space {
            CoordSpace::SmartResize { .. } => {
                (f64::from(self.image.0) - 1.0, f64::from(self.image.1) - 1.0)
            }
            _ => (999.0, 999.0),
        }
    }
}

impl fmt::Display for CoordSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoordSpace::Pixels => write!(f, "pixels"),
            CoordSpace::SmartResize {
                factor,
                min_pixels,
                max_pixels,
            } => write!(f, "smart-resize:{factor}:{min_pixels}:{max_pixels}"),
            CoordSpace::Relative1000 => write!(f, "rel1000"),
            CoordSpace::Relative1 => write!(f, "rel1"),
        }
    }
}

impl FromStr for CoordSpace {
    type Err = CoordError;

    /// `pixels`, `rel1000`, `rel1`, `smart-resize` (Qwen2.5-VL defaults), `smart-resize:paper`
    /// (C.1.1's budget) or `smart-resize:FACTOR:MIN_PIXELS:MAX_PIXELS`.
    fn from_str(s: &str) -> Result<Self, CoordError> {
        let bad = || CoordError::UnknownSpace(s.to_string());
        match s {
            "pixels" => return Ok(CoordSpace::Pixels),
            "rel1000" => return Ok(CoordSpace::Relative1000),
            "rel1" => return Ok(CoordSpace::Relative1),
            "smart-resize" => {
                return Ok(CoordSpace::SmartResize {
                    factor: QWEN25_FACTOR,
                    min_pixels: QWEN25_MIN_PIXELS,
                    max_pixels: QWEN25_MAX_PIXELS,
                })
            }
            "smart-resize:paper" => {
                return Ok(CoordSpace::SmartResize {
                    factor: PAPER_FACTOR,
                    min_pixels: PAPER_MIN_PIXELS,
                    max_pixels: PAPER_MAX_PIXELS,
                })
            }
            _ => {}
        }
        let rest = s.strip_prefix("smart-resize:").ok_or_else(bad)?;
        let parts: Vec<&str> = rest.split(':').collect();
        let [f, lo, hi] = parts.as_slice() else {
            return Err(bad());
        };
        let (factor, min_pixels, max_pixels) = (
            f.parse::<u32>().map_err(|_| bad())?,
            lo.parse::<u64>().map_err(|_| bad())?,
            hi.parse::<u64>().map_err(|_| bad())?,
        );
        if factor == 0 || min_pixels > max_pixels {
            return Err(CoordError::BadSmartResize(s.to_string()));
        }
        Ok(CoordSpace::SmartResize {
            factor,
            min_pixels,
            max_pixels,
        })
    }
}
