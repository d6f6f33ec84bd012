//! Where a cross-origin frame shows in the page: its viewport's corner, found from the page
//! down through each frame holding it, and whether the page covers it at a point.

use chromiumoxide::cdp::browser_protocol::dom::BackendNodeId;
use chromiumoxide::cdp::browser_protocol::target::TargetId;
use chromiumoxide::cdp::js_protocol::runtime::ExecutionContextId;
use chromiumoxide::page::Page;
use serde_json::{Value, json};

use super::{ASK, Frame, Frames};
use crate::page::{CallError, command};

/// Where a frame's element is shown, for a hit test: the document holding it (`None`: the
/// page's), where that document's viewport begins in the page's, the element, and the frame.
pub(crate) struct Shown {
    holder: Option<Frame>,
    corner: (f64, f64),
    element: BackendNodeId,
    frame: TargetId,
}

impl Frames {
    /// Scrolls the frame's element into view, in each frame holding it from the inside out
    /// and then in the page: where the frame's viewport then begins in the page's, and where
    /// each of its elements shows, from the page's down, for a hit test at a point of it.
    pub(crate) async fn scroll_to(&self, page: &Page, frame: &Frame) -> Option<((f64, f64), Vec<Shown>)> {
        let line = frame.line();
        let mut elements = Vec::with_capacity(line.len());
        for (holder, framed) in line.iter().rev() {
            let element = self.owner(page, *holder, &framed.id).await??;
            let scroll = json!({"backendNodeId": element});
            let _ = self.ask(page, *holder, "DOM.scrollIntoViewIfNeeded", scroll).await;
            elements.push(element);
        }
        elements.reverse();
        let mut shown = Vec::with_capacity(line.len());
        let mut corner = (0.0, 0.0);
        for ((holder, framed), element) in line.into_iter().zip(elements) {
            let (x, y) = self.content_corner(page, holder, element).await?;
            shown.push(Shown { holder: holder.cloned(), corner, element, frame: framed.id.clone() });
            corner = (corner.0 + x, corner.1 + y);
        }
        Some((corner, shown))
    }

    /// Where the frame's viewport begins in the page's, as the page is now.
    pub(crate) async fn corner(&self, page: &Page, frame: &Frame) -> Option<(f64, f64)> {
        let mut corner = (0.0, 0.0);
        for (holder, framed) in frame.line() {
            let element = self.owner(page, holder, &framed.id).await??;
            let (x, y) = self.content_corner(page, holder, element).await?;
            corner = (corner.0 + x, corner.1 + y);
        }
        Some(corner)
    }

    /// What covers the frame at `at`, a point of the page's, if anything: a hit test there,
    /// in each document from the page's down, must find the element holding the next (or, in
    /// a frame of the holder's process, which the hit test sees into, something of its own).
    pub(crate) async fn covering(&self, page: &Page, shown: &[Shown], at: (f64, f64)) -> Option<String> {
        for place in shown {
            let holder = place.holder.as_ref();
            // A point of the holder's document, not of its viewport, is what is hit-tested.
            let (left, top) = self.scrolled(page, holder).await;
            let (x, y) = at_point(at, place.corner, (left, top));
            let hit = self.ask(page, holder, "DOM.getNodeForLocation", json!({"x": x, "y": y})).await.ok();
            let within = hit.as_ref().is_some_and(|hit| hit["frameId"].as_str() == Some(place.frame.as_ref()));
            let hit = hit.and_then(|hit| hit["backendNodeId"].as_i64());
            if hit != Some(*place.element.inner()) && !within {
                let Some(hit) = hit else { return Some("nothing the page shows".into()) };
                let node = self.ask(page, holder, "DOM.describeNode", json!({"backendNodeId": hit})).await;
                return Some(node.map_or_else(|_| "another element".into(), |node| described(&node["node"])));
            }
        }
        None
    }

    /// Whether the frame shows in the page: its element, and that of each frame holding it,
    /// is rendered and visible in its document (`SHOWN`). A frame in a `display: none`
    /// container (a consent manager's, kept for later) or `visibility: hidden` shows nothing,
    /// whatever its own document says; the frame's script cannot tell, only its holder's can.
    /// `page_world` is the library's world in the page's document, where the page's script
    /// cannot change what the question finds; a document that does not answer in time is
    /// taken at its word.
    pub(crate) async fn shows(&self, page: &Page, frame: &Frame, page_world: Option<ExecutionContextId>) -> bool {
        for (holder, framed) in frame.line() {
            let Some(element) = self.owner(page, holder, &framed.id).await else { continue };
            let Some(element) = element else { return false };
            let world = match holder {
                None => page_world,
                Some(holder) => self.known_world(page, holder).await.ok(),
            };
            let mut resolve = json!({"backendNodeId": element});
            if let Some(world) = world {
                resolve["executionContextId"] = json!(world);
            }
            let Ok(node) = self.ask(page, holder, "DOM.resolveNode", resolve).await else { continue };
            let Some(object) = node["object"]["objectId"].as_str() else { continue };
            let asked = json!({"objectId": object, "functionDeclaration": SHOWN, "returnByValue": true});
            let shown = self.ask(page, holder, "Runtime.callFunctionOn", asked).await;
            let _ = self.ask(page, holder, "Runtime.releaseObject", json!({"objectId": object})).await;
            if shown.is_ok_and(|shown| shown["result"]["value"] == false) {
                return false;
            }
        }
        true
    }

    /// Sends `method` to the document of `holder`, or of the page when `None`, within `ASK`.
    pub(super) async fn ask(
        &self,
        page: &Page,
        holder: Option<&Frame>,
        method: &str,
        params: Value,
    ) -> Result<Value, CallError> {
        match holder {
            Some(frame) => {
                let asked = self.send(page, frame, method, params, ASK);
                tokio::time::timeout(ASK, asked).await.map_err(|_| CallError::Timeout)?
            }
            None => command(page, method, params, ASK).await,
        }
    }

    /// The element of `holder`'s document (the page's when `None`) that holds `frame`: `None`
    /// when it did not answer in time, `Some(None)` when it is not there.
    pub(super) async fn owner(
        &self,
        page: &Page,
        holder: Option<&Frame>,
        frame: &TargetId,
    ) -> Option<Option<BackendNodeId>> {
        match self.ask(page, holder, "DOM.getFrameOwner", json!({"frameId": frame})).await {
            Err(CallError::Timeout) => None,
            Err(_) => Some(None),
            Ok(owner) => Some(serde_json::from_value(owner["backendNodeId"].clone()).ok()),
        }
    }

    /// How far `holder`'s document (the page's when `None`) is scrolled; none when not told.
    async fn scrolled(&self, page: &Page, holder: Option<&Frame>) -> (f64, f64) {
        let metrics = self.ask(page, holder, "Page.getLayoutMetrics", json!({})).await.ok();
        let offset = |axis: &str| metrics.as_ref().and_then(|m| m["cssLayoutViewport"][axis].as_f64()).unwrap_or(0.0);
        (offset("pageX"), offset("pageY"))
    }

    /// The top left corner of `element`'s content box (inside its border and padding), in the
    /// viewport of `holder`'s document (the page's when `None`).
    async fn content_corner(&self, page: &Page, holder: Option<&Frame>, element: BackendNodeId) -> Option<(f64, f64)> {
        let model = self.ask(page, holder, "DOM.getBoxModel", json!({"backendNodeId": element})).await.ok()?;
        let quad = model["model"]["content"].as_array()?;
        Some((quad.first()?.as_f64()?, quad.get(1)?.as_f64()?))
    }
}

/// Whether the element it is called on shows, as the library judges an element
/// (`isVisible`, assets/js/statewright/10-utilities.js): rendered, not hidden, of some size.
const SHOWN: &str = "function () {
    const box = this.getBoundingClientRect();
    return (!this.checkVisibility || this.checkVisibility())
        && getComputedStyle(this).visibility === 'visible' && box.width > 0 && box.height > 0;
}";

/// The point of a document that shows `at`, a point of the page's viewport, when the
/// document's viewport begins at `corner` in the page's and is scrolled by `scrolled`.
fn at_point(at: (f64, f64), corner: (f64, f64), scrolled: (f64, f64)) -> (i64, i64) {
    ((at.0 - corner.0 + scrolled.0).round() as i64, (at.1 - corner.1 + scrolled.1).round() as i64)
}

/// A node as DevTools describes it, in short: `div#cookie-wall`, `div.overlay`.
fn described(node: &Value) -> String {
    let name = node["localName"].as_str().filter(|n| !n.is_empty()).unwrap_or("an element");
    let attributes: Vec<&str> = node["attributes"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let value = |key: &str| attributes.chunks(2).find(|pair| pair[0] == key).and_then(|pair| pair.get(1).copied());
    // The page chose these names: kept short.
    let short = |text: &str| text.chars().take(40).collect::<String>();
    match (value("id"), value("class").and_then(|c| c.split_whitespace().next())) {
        (Some(id), _) if !id.is_empty() => format!("{}#{}", short(name), short(id)),
        (_, Some(class)) => format!("{}.{}", short(name), short(class)),
        _ => short(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_covers_a_frame_is_named_in_short() {
        let node = |attributes: Value| json!({"localName": "div", "attributes": attributes});
        assert_eq!(described(&node(json!(["class", "promo wide", "id", "wall"]))), "div#wall");
        assert_eq!(described(&node(json!(["class", "promo wide"]))), "div.promo");
        assert_eq!(described(&node(json!(["id", ""]))), "div");
        let long = "x".repeat(5000);
        assert_eq!(described(&node(json!(["id", long]))).len(), "div#".len() + 40);
        assert_eq!(described(&json!({})), "an element");
    }
}
