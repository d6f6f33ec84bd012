//! Set-of-mark screenshots: each element of the snapshot boxed on the screenshot with its
//! number, so a vision model can answer "element 12". Password fields are painted over
//! first: whatever they hold never reaches a model.

use image::{ImageFormat, Rgb, RgbImage};
use serde_json::Value;
use statewright_engine::EscalationRequest;

/// An element's box in screenshot pixels, and its number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub number: u32,
    pub x: i64,
    pub y: i64,
    pub w: i64,
    pub h: i64,
    pub secret: bool,
}

/// The marks of a snapshot's elements (`id` "e12" → 12, `rect` in CSS pixels).
pub fn marks(elements: &Value) -> Vec<Mark> {
    let items = elements.as_array().map(Vec::as_slice).unwrap_or_default();
    items
        .iter()
        .filter_map(|e| {
            let number = e.get("id")?.as_str()?.trim_start_matches('e').parse().ok()?;
            let rect = e.get("rect")?;
            let n = |k: &str| rect.get(k).and_then(Value::as_f64).map(|v| v.round() as i64);
            let secret = e.get("type").and_then(Value::as_str) == Some("password");
            Some(Mark { number, x: n("x")?, y: n("y")?, w: n("width")?, h: n("height")?, secret })
        })
        .filter(|m| m.w > 0 && m.h > 0)
        .collect()
}

const COLOURS: [[u8; 3]; 6] =
    [[230, 25, 75], [0, 130, 200], [245, 130, 48], [60, 180, 75], [145, 30, 180], [0, 128, 128]];

/// The page `request` shows as a model sees it: its screenshot with its elements marked;
/// `None` without one.
pub fn set_of_mark(request: &EscalationRequest) -> Option<Vec<u8>> {
    let page = request.observation.as_ref()?;
    draw(page.screenshot.as_ref()?, &marks(&page.elements))
}

/// A recorded screenshot with its page's password fields painted over, unmarked otherwise
/// (the judge's evidence); `None` when it cannot be decoded.
pub fn covered(screenshot: &[u8], elements: &Value) -> Option<Vec<u8>> {
    let secrets: Vec<Mark> = marks(elements).into_iter().filter(|m| m.secret).collect();
    if secrets.is_empty() {
        return Some(screenshot.to_vec());
    }
    paint(screenshot, &secrets, false)
}

/// The screenshot with the marks drawn, as JPEG; `None` when it cannot be decoded.
pub fn draw(screenshot: &[u8], marks: &[Mark]) -> Option<Vec<u8>> {
    paint(screenshot, marks, true)
}

/// Password fields painted over, then, when `boxed`, every mark outlined and numbered.
fn paint(screenshot: &[u8], marks: &[Mark], boxed: bool) -> Option<Vec<u8>> {
    let mut image = image::load_from_memory(screenshot).ok()?.to_rgb8();
    for m in marks.iter().filter(|m| m.secret) {
        fill(&mut image, m.x, m.y, m.w, m.h, Rgb([90, 90, 90]));
    }
    for m in marks.iter().filter(|_| boxed) {
        let colour = Rgb(COLOURS[m.number as usize % COLOURS.len()]);
        outline(&mut image, m.x, m.y, m.w, m.h, colour);
        label(&mut image, m.x, m.y, m.number, colour);
    }
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(image).write_to(&mut out, ImageFormat::Jpeg).ok()?;
    Some(out.into_inner())
}

fn put(image: &mut RgbImage, x: i64, y: i64, colour: Rgb<u8>) {
    if x >= 0 && y >= 0 && (x as u32) < image.width() && (y as u32) < image.height() {
        image.put_pixel(x as u32, y as u32, colour);
    }
}

fn fill(image: &mut RgbImage, x: i64, y: i64, w: i64, h: i64, colour: Rgb<u8>) {
    // Clamp first: a huge rect from a page must not make this loop long.
    let (x0, y0) = (x.max(0), y.max(0));
    let (x1, y1) = ((x + w).min(image.width() as i64), (y + h).min(image.height() as i64));
    for yy in y0..y1 {
        for xx in x0..x1 {
            put(image, xx, yy, colour);
        }
    }
}

fn outline(image: &mut RgbImage, x: i64, y: i64, w: i64, h: i64, colour: Rgb<u8>) {
    for t in 0..2 {
        fill(image, x, y + t, w, 1, colour);
        fill(image, x, y + h - 1 - t, w, 1, colour);
        fill(image, x + t, y, 1, h, colour);
        fill(image, x + w - 1 - t, y, 1, h, colour);
    }
}

/// 3×5 digits, one row per `u8` (three low bits, left to right).
const DIGITS: [[u8; 5]; 10] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 1, 1, 1],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
];
const SCALE: i64 = 2;

/// The number in white on a filled tag at the box's top-left corner.
fn label(image: &mut RgbImage, x: i64, y: i64, number: u32, colour: Rgb<u8>) {
    let digits: Vec<usize> = number.to_string().bytes().map(|b| (b - b'0') as usize).collect();
    let (w, h) = (digits.len() as i64 * 4 * SCALE + SCALE, 7 * SCALE);
    let top = if y >= h { y - h } else { y };
    fill(image, x, top, w, h, colour);
    for (i, d) in digits.iter().enumerate() {
        for (row, bits) in DIGITS[*d].iter().enumerate() {
            for col in 0..3 {
                if bits & (4 >> col) != 0 {
                    let px = x + SCALE + (i as i64 * 4 + col) * SCALE;
                    let py = top + SCALE + row as i64 * SCALE;
                    fill(image, px, py, SCALE, SCALE, Rgb([255, 255, 255]));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let image = RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        image::DynamicImage::ImageRgb8(image).write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn boxes_are_drawn_and_password_fields_painted_over() {
        let elements = json!([
            {"id": "e3", "rect": {"x": 10, "y": 30, "width": 100, "height": 20}},
            {"id": "e4", "type": "password", "rect": {"x": 10, "y": 80, "width": 100, "height": 20}},
            {"id": "bad", "rect": {"x": 0, "y": 0, "width": 5, "height": 5}},
            {"id": "e9", "rect": {"x": -1e12, "y": 5e12, "width": 1e12, "height": 1e12}}
        ]);
        let m = marks(&elements);
        assert_eq!(m.iter().map(|m| m.number).collect::<Vec<_>>(), [3, 4, 9]);
        let out = draw(&png(200, 120), &m).unwrap();
        let image = image::load_from_memory(&out).unwrap().to_rgb8();
        let is = |x, y, f: fn(&Rgb<u8>) -> bool| f(image.get_pixel(x, y));
        // Element 3's colour is green.
        assert!(is(50, 30, |p| p[1] > 140 && p[0] < 120 && p[2] < 130), "the box's top edge is in its colour");
        assert!(is(12, 22, |p| p[1] > 120 || (p[0] > 200 && p[2] > 200)), "the number's tag sits above the box");
        assert!(is(60, 90, |p| p[0] < 130 && p[1] < 130 && p[2] < 130), "the password field is painted over");
        assert!(is(150, 60, |p| p[0] > 240 && p[1] > 240), "the rest of the page is untouched");
        assert!(draw(b"not an image", &m).is_none());
    }
}
