//! The JSON tree of the State diff screen: the union of both documents as nodes (each with its
//! change kind, masked flag and search hit), flattened into display lines according to the folds.
//! Containers with a change are open by default, unchanged ones folded; a search opens the nodes
//! that hold a match; masked nodes are hidden unless shown.

use serde_json::Value;

use super::state_rows::{compact, leaf_lines, BuildOpts, DLine, Fold, Kind};
use tuplewright_engine::env::mask::Mask;

/// One node of the merged tree.
pub(crate) struct Node<'v> {
    label: String,
    id: String,
    kind: Kind,
    masked: bool,
    hit: bool,
    a: Option<&'v Value>,
    b: Option<&'v Value>,
    children: Option<Vec<Node<'v>>>,
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn node<'v>(
    label: String,
    id: String,
    segs: &mut Vec<String>,
    a: Option<&'v Value>,
    b: Option<&'v Value>,
    mask: &Mask,
    parent_masked: bool,
    query: &str,
) -> Node<'v> {
    let masked = parent_masked || (!segs.is_empty() && mask.matches(segs));
    let keys: Option<Vec<String>> = match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => Some(
            x.keys()
                .chain(y.keys().filter(|k| !x.contains_key(*k)))
                .cloned()
                .collect(),
        ),
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            Some((0..x.len().max(y.len())).map(|i| i.to_string()).collect())
        }
        (Some(Value::Object(x)), None) | (None, Some(Value::Object(x))) => {
            Some(x.keys().cloned().collect())
        }
        (Some(Value::Array(x)), None) | (None, Some(Value::Array(x))) => {
            Some((0..x.len()).map(|i| i.to_string()).collect())
        }
        _ => None,
    };
    // Empty containers read better as values (`[]`, `{}`) than as nodes.
    let keys = keys.filter(|k| !k.is_empty());
    let child = |v: Option<&'v Value>, k: &str| -> Option<&'v Value> {
        match v? {
            Value::Object(m) => m.get(k),
            Value::Array(xs) => k.parse::<usize>().ok().and_then(|i| xs.get(i)),
            _ => None,
        }
    };
    let children: Option<Vec<Node<'v>>> = keys.map(|keys| {
        keys.iter()
            .map(|k| {
                segs.push(k.clone());
                let n = node(
                    k.clone(),
                    format!("{id}\u{1f}{k}"),
                    segs,
                    child(a, k),
                    child(b, k),
                    mask,
                    masked,
                    query,
                );
                segs.pop();
                n
            })
            .collect()
    });
    let kind = match (a, b, &children) {
        (None, Some(_), _) => Kind::Added,
        (Some(_), None, _) => Kind::Removed,
        (_, _, Some(ch)) if ch.iter().any(|c| !c.masked && c.kind != Kind::Same) => Kind::Changed,
        (_, _, Some(_)) => Kind::Same,
        _ if a == b => Kind::Same,
        _ => Kind::Changed,
    };
    let own_hit = !query.is_empty()
        && (label.to_lowercase().contains(query)
            || (children.is_none()
                && [a, b]
                    .iter()
                    .flatten()
                    .any(|v| compact(v).to_lowercase().contains(query))));
    let hit = own_hit || children.as_ref().is_some_and(|c| c.iter().any(|c| c.hit));
    Node {
        label,
        id,
        kind,
        masked,
        hit,
        a,
        b,
        children,
    }
}

fn summary(v: Option<&Value>) -> Option<String> {
    Some(match v? {
        Value::Object(m) if m.len() == 1 => "{…} 1 key".to_string(),
        Value::Object(m) => format!("{{…}} {} keys", m.len()),
        Value::Array(xs) if xs.len() == 1 => "[…] 1 item".to_string(),
        Value::Array(xs) => format!("[…] {} items", xs.len()),
        other => compact(other),
    })
}

pub(crate) fn flatten(n: &Node<'_>, depth: u16, opts: &BuildOpts<'_>, out: &mut Vec<DLine>) {
    if n.masked && !opts.show_masked {
        return;
    }
    let Some(children) = &n.children else {
        leaf_lines(
            n.kind,
            depth,
            n.label.clone(),
            n.a,
            n.b,
            n.masked,
            opts.split,
            out,
        );
        return;
    };
    let default_open = depth == 0 || (n.kind != Kind::Same && !n.masked);
    let open = (default_open != opts.toggled.contains(&n.id))
        || (!opts.query.is_empty() && n.hit && depth > 0);
    let mut l = DLine::new(n.kind, depth, n.label.clone());
    l.masked = n.masked;
    l.heading = depth == 0;
    l.fold = Some(Fold {
        id: n.id.clone(),
        open,
    });
    if !open {
        if opts.split {
            l.left = summary(n.a);
            l.right = summary(n.b);
        } else {
            l.left = summary(n.b.or(n.a));
        }
    }
    out.push(l);
    if open {
        for c in children {
            flatten(c, depth + 1, opts, out);
        }
    }
}
