//! Screenshots through xcap, encoded to PNG with the `image` crate. xcap returns RGBA;
//! the alpha is always opaque on X11, so we encode RGB (a quarter less to compress) with
//! fast compression: screenshots are taken every step and must not slow the run down.

use std::sync::Arc;

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, RgbaImage};
use xcap::Monitor;

use crate::error::{DesktopError, DesktopResult};
use crate::types::{Rect, Screenshot};

fn xcap_err(e: xcap::XCapError) -> DesktopError {
    DesktopError::Capture(e.to_string())
}

fn monitor_rect(m: &Monitor) -> DesktopResult<Rect> {
    Ok(Rect {
        x: m.x().map_err(xcap_err)?,
        y: m.y().map_err(xcap_err)?,
        width: m.width().map_err(xcap_err)?,
        height: m.height().map_err(xcap_err)?,
    })
}

fn monitors() -> DesktopResult<Vec<(Monitor, Rect)>> {
    let all = Monitor::all().map_err(xcap_err)?;
    if all.is_empty() {
        return Err(DesktopError::Capture("xcap found no monitor on this display".into()));
    }
    all.into_iter().map(|m| monitor_rect(&m).map(|r| (m, r))).collect()
}

/// The whole X screen: every monitor, composed where they are.
pub(crate) fn screen() -> DesktopResult<(RgbaImage, Rect)> {
    let mons = monitors()?;
    if let [(m, rect)] = mons.as_slice() {
        return Ok((m.capture_image().map_err(xcap_err)?, *rect));
    }
    let left = mons.iter().map(|(_, r)| r.x).min().unwrap_or(0);
    let top = mons.iter().map(|(_, r)| r.y).min().unwrap_or(0);
    let right = mons.iter().map(|(_, r)| r.x + r.width as i32).max().unwrap_or(0);
    let bottom = mons.iter().map(|(_, r)| r.y + r.height as i32).max().unwrap_or(0);
    let area = Rect { x: left, y: top, width: (right - left) as u32, height: (bottom - top) as u32 };
    let mut canvas = RgbaImage::new(area.width, area.height);
    for (m, r) in &mons {
        let img = m.capture_image().map_err(xcap_err)?;
        image::imageops::replace(&mut canvas, &img, i64::from(r.x - left), i64::from(r.y - top));
    }
    Ok((canvas, area))
}

/// One monitor, by index in xcap's list.
pub(crate) fn monitor(index: usize) -> DesktopResult<(RgbaImage, Rect)> {
    let mons = monitors()?;
    let count = mons.len();
    let (m, rect) = mons
        .into_iter()
        .nth(index)
        .ok_or_else(|| DesktopError::Invalid(format!("no monitor {index}: this display has {count}")))?;
    Ok((m.capture_image().map_err(xcap_err)?, rect))
}

/// A screen rectangle (a window's client area), clipped to the monitor that holds its
/// centre. Captured from the screen rather than the window's own drawable, so it shows
/// what a person sees, and it works the same with or without a window manager.
pub(crate) fn region(want: Rect) -> DesktopResult<(RgbaImage, Rect)> {
    let cx = want.x + want.width as i32 / 2;
    let cy = want.y + want.height as i32 / 2;
    let mons = monitors()?;
    let (m, mr) = mons
        .iter()
        .find(|(_, r)| cx >= r.x && cy >= r.y && cx < r.x + r.width as i32 && cy < r.y + r.height as i32)
        .or_else(|| mons.first())
        .ok_or_else(|| DesktopError::Capture("no monitor".into()))?;
    let x0 = want.x.max(mr.x);
    let y0 = want.y.max(mr.y);
    let x1 = (want.x + want.width as i32).min(mr.x + mr.width as i32);
    let y1 = (want.y + want.height as i32).min(mr.y + mr.height as i32);
    if x1 <= x0 || y1 <= y0 {
        return Err(DesktopError::Capture(format!(
            "the window at {},{} ({}x{}) is off screen",
            want.x, want.y, want.width, want.height
        )));
    }
    let clip = Rect { x: x0, y: y0, width: (x1 - x0) as u32, height: (y1 - y0) as u32 };
    let img = m.capture_region((x0 - mr.x) as u32, (y0 - mr.y) as u32, clip.width, clip.height).map_err(xcap_err)?;
    Ok((img, clip))
}

/// Encodes as an RGB PNG with fast compression.
pub fn encode_png(img: &RgbaImage) -> DesktopResult<Vec<u8>> {
    let rgb: Vec<u8> = img.as_raw().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Sub)
        .write_image(&rgb, img.width(), img.height(), image::ExtendedColorType::Rgb8)
        .map_err(|e| DesktopError::Capture(format!("PNG encoding: {e}")))?;
    Ok(out)
}

pub(crate) fn to_screenshot(img: &RgbaImage, area: Rect) -> DesktopResult<Screenshot> {
    Ok(Screenshot { width: img.width(), height: img.height(), area, png: Arc::new(encode_png(img)?) })
}
