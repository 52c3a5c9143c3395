//! Screenshots: the root window read with GetImage (ZPixmap, 24/32 bits per pixel) and encoded as
//! PNG with fast compression; the blank-screen test of the pre-rollout gate.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, ImageOrder, Window};
use x11rb::rust_connection::RustConnection;

use super::ScreenError;

/// One screenshot: PNG bytes at the display's native size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shot {
    /// PNG data.
    pub png: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Raw pixels of the display, 8-bit RGB, row-major.
pub(super) struct Frame {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

/// Reads the whole root window.
pub(super) fn grab(
    conn: &RustConnection,
    root: Window,
    width: u16,
    height: u16,
) -> Result<Frame, ScreenError> {
    let reply = conn
        .get_image(ImageFormat::Z_PIXMAP, root, 0, 0, width, height, !0)
        .map_err(|e| ScreenError::DisplayDied(e.to_string()))?
        .reply()
        .map_err(|e| ScreenError::DisplayDied(e.to_string()))?;
    let setup = conn.setup();
    let bpp = setup
        .pixmap_formats
        .iter()
        .find(|f| f.depth == reply.depth)
        .map(|f| f.bits_per_pixel)
        .unwrap_or(0);
    if reply.depth != 24 || bpp != 32 || setup.image_byte_order != ImageOrder::LSB_FIRST {
        return Err(ScreenError::Unsupported(format!(
            "root window of depth {} at {bpp} bits per pixel ({:?}); expected depth 24 at 32 bpp, LSB first",
            reply.depth, setup.image_byte_order
        )));
    }
    let n = width as usize * height as usize;
    if reply.data.len() < n * 4 {
        return Err(ScreenError::DisplayDied(format!(
            "GetImage returned {} bytes for {n} pixels",
            reply.data.len()
        )));
    }
    let mut rgb = vec![0u8; n * 3];
    for (out, px) in rgb.chunks_exact_mut(3).zip(reply.data.chunks_exact(4)) {
        // Little-endian 0x00RRGGBB: bytes B, G, R, pad.
        out[0] = px[2];
        out[1] = px[1];
        out[2] = px[0];
    }
    Ok(Frame {
        width: width.into(),
        height: height.into(),
        rgb,
    })
}

/// Encodes RGB pixels as PNG: fast deflate with the `Up` filter (cheap, and UIs repeat
/// vertically), a 1280×800 UI in a few milliseconds.
pub fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, ScreenError> {
    let mut png = Vec::with_capacity(rgb.len() / 8);
    PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::Up)
        .write_image(rgb, width, height, ExtendedColorType::Rgb8)
        .map_err(|e| ScreenError::Io(format!("encoding the screenshot as PNG: {e}")))?;
    Ok(png)
}

/// Encodes a frame as PNG.
pub(super) fn encode(frame: &Frame) -> Result<Shot, ScreenError> {
    Ok(Shot {
        png: encode_png(&frame.rgb, frame.width, frame.height)?,
        width: frame.width,
        height: frame.height,
    })
}

/// Whether an RGB image shows nothing: fewer than 1 in 5000 pixels differ from the first one
/// (a uniform or blank screen; a caret alone does not count as content).
pub fn is_blank(rgb: &[u8]) -> bool {
    let Some(first) = rgb.get(..3) else {
        return true;
    };
    let pixels = rgb.len() / 3;
    let differing = rgb.chunks_exact(3).filter(|p| *p != first).count();
    differing * 5000 < pixels
}
