//! The web [`TargetResolver`]: finds a target through Chromium's accessibility tree (role and
//! accessible name, `Accessibility.queryAXTree`) or the DOM (CSS selector), and maps the element's
//! box from page CSS pixels to screen pixels (the kiosk window sits at 0,0; the window's own
//! offset and `devicePixelRatio` are applied). An element that is absent, has no box, or is
//! covered or clipped at its centre (scrolled out of its list) is "not on screen now".

use serde_json::{json, Value};

use super::cdp::Cdp;
use crate::engine::rollout::ui_plan::{Rect, Target, TargetResolver};
use crate::engine::rollout::RolloutError;

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
    ]
    .iter()
    .any(|m| e.contains(m))
}

/// A call's result, `None` when the page navigated under it.
fn transient(r: Result<Value, String>) -> Result<Option<Value>, RolloutError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if navigated(&e) => Ok(None),
        Err(e) => Err(infra(e)),
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

    fn box_of(&mut self, object_id: &str) -> Result<Option<Rect>, RolloutError> {
        let r = transient(self.cdp.call(
            "Runtime.callFunctionOn",
            json!({"objectId": object_id, "functionDeclaration": BOX_OF_THIS, "returnByValue": true}),
        ))?;
        Ok(r.and_then(|r| rect(&r["result"]["value"])))
    }

    fn by_css(&mut self, selector: &str) -> Result<Option<Rect>, RolloutError> {
        let expr = format!("document.querySelector({})", json!(selector));
        let Some(r) = transient(
            self.cdp
                .call("Runtime.evaluate", json!({"expression": expr})),
        )?
        else {
            return Ok(None);
        };
        if r.get("exceptionDetails").is_some() {
            return Err(RolloutError::Policy(format!(
                "bad CSS selector {selector:?}: {}",
                r["exceptionDetails"]["exception"]["description"]
            )));
        }
        match r["result"]["objectId"].as_str() {
            Some(id) => {
                let id = id.to_string();
                self.box_of(&id)
            }
            None => Ok(None),
        }
    }

    fn by_role(&mut self, role: &str, name: &str) -> Result<Option<Rect>, RolloutError> {
        let Some(doc) = transient(self.cdp.call("DOM.getDocument", json!({"depth": 0})))? else {
            return Ok(None);
        };
        let Some(nodes) = transient(self.cdp.call(
            "Accessibility.queryAXTree",
            json!({"nodeId": doc["root"]["nodeId"], "accessibleName": name, "role": role}),
        ))?
        else {
            return Ok(None);
        };
        let ids: Vec<i64> = nodes["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|n| n["ignored"] != true)
            .filter_map(|n| n["backendDOMNodeId"].as_i64())
            .collect();
        for backend in ids {
            let Ok(obj) = self
                .cdp
                .call("DOM.resolveNode", json!({"backendNodeId": backend}))
            else {
                continue;
            };
            if let Some(id) = obj["object"]["objectId"].as_str() {
                let id = id.to_string();
                if let Some(r) = self.box_of(&id)? {
                    return Ok(Some(r));
                }
            }
        }
        Ok(None)
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
        match target {
            Target::Point { x, y } => Ok(Some(Rect {
                x: *x,
                y: *y,
                w: 1,
                h: 1,
            })),
            Target::Css { selector } => self.by_css(selector),
            Target::Role { role, name } => self.by_role(role, name),
        }
    }
}
