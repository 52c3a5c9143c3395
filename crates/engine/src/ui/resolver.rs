//! The web [`TargetResolver`]: finds a target through Chromium's accessibility tree (role and
//! accessible name, `Accessibility.queryAXTree`) or the DOM (CSS selector), and maps the element's
//! box from page CSS pixels to screen pixels (the kiosk window sits at 0,0; the window's own
//! offset and `devicePixelRatio` are applied). An element that is absent, has no box, or is
//! covered or clipped at its centre (scrolled out of its list) is "not on screen now"; for one
//! scrolled out of its list, [`TargetResolver::scroll_hint`] names the list and how far to turn
//! the wheel, so the executor brings it into view with `scroll` actions like a person would.

use serde_json::{json, Value};

use super::cdp::Cdp;
use crate::act::ui_plan::{Rect, ScrollHint, Target, TargetResolver};
use crate::act::RolloutError;

/// Resolves targets on one Chromium page.
pub struct WebResolver {
    cdp: Cdp,
}

/// `this` → `[x, y, w, h]` in screen pixels, or `null` when not hit-testable at its centre.
const BOX_OF_THIS: &str = r#"function () {
  const e = this;
  if (!e || !e.getBoundingClientRect) return null;
  const r = e.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const hit = document.elementFromPoint(cx, cy);
  if (!hit || !(hit === e || e.contains(hit) || (e.labels && [...e.labels].some(l => l.contains(hit))))) return null;
  const dpr = window.devicePixelRatio || 1;
  const ox = window.screenX + (window.outerWidth - window.innerWidth);
  const oy = window.screenY + (window.outerHeight - window.innerHeight);
  return [(ox + r.left) * dpr, (oy + r.top) * dpr, r.width * dpr, r.height * dpr];
}"#;

/// `this` → `[x, y, dy]`: a point inside the element's scrolling container (or the page) and
/// how far its content must move to bring the element's centre into the container's middle
/// third, all in screen pixels; `null` when it has no box or its centre is already inside.
const HINT_OF_THIS: &str = r#"function () {
  const e = this;
  if (!e || !e.getBoundingClientRect) return null;
  const r = e.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  let p = e.parentElement;
  while (p && p !== document.body && p !== document.documentElement) {
    const oy = getComputedStyle(p).overflowY;
    if ((oy === 'auto' || oy === 'scroll') && p.scrollHeight > p.clientHeight + 1) break;
    p = p.parentElement;
  }
  const page = !p || p === document.body || p === document.documentElement;
  const c = page ? { top: 0, bottom: innerHeight, left: 0, right: innerWidth } : p.getBoundingClientRect();
  const top = Math.max(c.top, 0), bottom = Math.min(c.bottom, innerHeight);
  const left = Math.max(c.left, 0), right = Math.min(c.right, innerWidth);
  if (bottom - top < 8 || right - left < 8) return null;
  const cy = r.top + r.height / 2;
  let dy;
  if (cy < top + 4) dy = cy - (top + (bottom - top) / 3);
  else if (cy > bottom - 4) dy = cy - (top + 2 * (bottom - top) / 3);
  else return null;
  const dpr = window.devicePixelRatio || 1;
  const ox = window.screenX + (window.outerWidth - window.innerWidth);
  const oy = window.screenY + (window.outerHeight - window.innerHeight);
  return [(ox + (left + right) / 2) * dpr, (oy + (top + bottom) / 2) * dpr, dy * dpr];
}"#;

/// The shown document's identity: a new value after every navigation, `null` until it has
/// loaded and painted (Chromium drops input that reaches a new page before its first paint, so
/// a click sent earlier would be lost).
const DOCUMENT_ID: &str = "document.readyState === 'loading' || \
     performance.getEntriesByType('paint').length === 0 ? null : String(performance.timeOrigin)";

fn infra(e: String) -> RolloutError {
    RolloutError::Infra(e)
}

/// Whether a DevTools error only means the page navigated between two calls (its nodes and
/// execution context went away): the target is "not on screen now", to be resolved again.
fn navigated(e: &str) -> bool {
    [
        "Could not find node",
        "No node with given id",
        "Cannot find context",
        "Execution context was destroyed",
        "Cannot find default execution context",
        "Inspected target navigated or closed",
    ]
    .iter()
    .any(|m| e.contains(m))
}

/// A call's result, `None` when the page navigated under it.
fn transient(r: Result<Value, super::cdp::CdpError>) -> Result<Option<Value>, RolloutError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if navigated(&e.to_string()) => Ok(None),
        Err(e) => Err(infra(e.to_string())),
    }
}

impl WebResolver {
    /// A resolver over a DevTools session.
    pub fn new(cdp: Cdp) -> WebResolver {
        WebResolver { cdp }
    }

    /// The underlying DevTools session.
    pub fn cdp(&mut self) -> &mut Cdp {
        &mut self.cdp
    }

    /// Calls a function on an element and returns its value (`None` when the page navigated).
    fn call_on(&mut self, object_id: &str, function: &str) -> Result<Option<Value>, RolloutError> {
        let r = transient(self.cdp.call(
            "Runtime.callFunctionOn",
            json!({"objectId": object_id, "functionDeclaration": function, "returnByValue": true}),
        ))?;
        Ok(r.map(|r| r["result"]["value"].clone()))
    }

    /// The remote objects of the elements the target names, best candidate first.
    fn objects(&mut self, target: &Target) -> Result<Vec<String>, RolloutError> {
        match target {
            Target::Point { .. } => Ok(Vec::new()),
            Target::Css { selector } => self.by_css(selector),
            Target::Role { role, name } => self.by_role(role, name),
        }
    }

    fn by_css(&mut self, selector: &str) -> Result<Vec<String>, RolloutError> {
        let expr = format!("document.querySelector({})", json!(selector));
        let Some(r) = transient(
            self.cdp
                .call("Runtime.evaluate", json!({"expression": expr})),
        )?
        else {
            return Ok(Vec::new());
        };
        if r.get("exceptionDetails").is_some() {
            return Err(RolloutError::Policy(format!(
                "bad CSS selector {selector:?}: {}",
                r["exceptionDetails"]["exception"]["description"]
            )));
        }
        Ok(r["result"]["objectId"]
            .as_str()
            .map(str::to_string)
            .into_iter()
            .collect())
    }

    fn by_role(&mut self, role: &str, name: &str) -> Result<Vec<String>, RolloutError> {
        let Some(doc) = transient(self.cdp.call("DOM.getDocument", json!({"depth": 0})))? else {
            return Ok(Vec::new());
        };
        let Some(nodes) = transient(self.cdp.call(
            "Accessibility.queryAXTree",
            json!({"nodeId": doc["root"]["nodeId"], "accessibleName": name, "role": role}),
        ))?
        else {
            return Ok(Vec::new());
        };
        let backends: Vec<i64> = nodes["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|n| n["ignored"] != true)
            .filter_map(|n| n["backendDOMNodeId"].as_i64())
            .collect();
        let mut ids = Vec::new();
        for backend in backends {
            let Ok(obj) = self
                .cdp
                .call("DOM.resolveNode", json!({"backendNodeId": backend}))
            else {
                continue;
            };
            if let Some(id) = obj["object"]["objectId"].as_str() {
                ids.push(id.to_string());
            }
        }
        Ok(ids)
    }
}

fn rect(v: &Value) -> Option<Rect> {
    let a = v.as_array()?;
    let n = |i: usize| a.get(i).and_then(Value::as_f64).map(|f| f.round() as i32);
    Some(Rect {
        x: n(0)?,
        y: n(1)?,
        w: n(2)?.max(1),
        h: n(3)?.max(1),
    })
}

impl TargetResolver for WebResolver {
    fn resolve(&mut self, target: &Target) -> Result<Option<Rect>, RolloutError> {
        if let Target::Point { x, y } = target {
            return Ok(Some(Rect {
                x: *x,
                y: *y,
                w: 1,
                h: 1,
            }));
        }
        for id in self.objects(target)? {
            if let Some(r) = self.call_on(&id, BOX_OF_THIS)?.and_then(|v| rect(&v)) {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }

    fn scroll_hint(&mut self, target: &Target) -> Result<Option<ScrollHint>, RolloutError> {
        for id in self.objects(target)? {
            let Some(v) = self.call_on(&id, HINT_OF_THIS)? else {
                continue;
            };
            let n = |i: usize| v.get(i).and_then(Value::as_f64).map(|f| f.round() as i32);
            if let (Some(x), Some(y), Some(dy)) = (n(0), n(1), n(2)) {
                return Ok(Some(ScrollHint { x, y, dy }));
            }
        }
        Ok(None)
    }

    fn present(&mut self, target: &Target) -> Result<bool, RolloutError> {
        match target {
            Target::Point { .. } => Ok(true),
            _ => Ok(!self.objects(target)?.is_empty()),
        }
    }

    fn document_id(&mut self) -> Result<Option<String>, RolloutError> {
        let r = transient(self.cdp.call(
            "Runtime.evaluate",
            json!({"expression": DOCUMENT_ID, "returnByValue": true}),
        ))?;
        Ok(r.and_then(|r| r["result"]["value"].as_str().map(str::to_string)))
    }
}
