//! The screenshot as the model receives it: resized to the coordinate space's image size when
//! that differs from the screen (Qwen smart resize), kept native otherwise.

use std::sync::Arc;

use image::imageops::FilterType;

use super::coords::Coords;
use super::wire::ModelImage;
use crate::rollout::RolloutError;
use crate::screen::{encode_png, Shot};

/// The model's image of a screenshot.
pub fn model_image(shot: &Shot, coords: &Coords) -> Result<ModelImage, RolloutError> {
    let (w, h) = coords.image;
    if (shot.width, shot.height) == (w, h) {
        return Ok(ModelImage {
            png: Arc::new(shot.png.clone()),
            width: w,
            height: h,
        });
    }
    let img = image::load_from_memory(&shot.png)
        .map_err(|e| RolloutError::Infra(format!("decoding the screenshot: {e}")))?
        .to_rgb8();
    let resized = image::imageops::resize(&img, w, h, FilterType::Triangle);
    let png = encode_png(resized.as_raw(), w, h)?;
    Ok(ModelImage {
        png: Arc::new(png),
        width: w,
        height: h,
    })
}
