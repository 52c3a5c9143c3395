//! `print("REWARD: …")` and `sys.stdout.write("REWARD: …")`: the printed reward is an award,
//! and the names interpolated into it are score names.

use super::facts::AwardKind;
use super::flow::Flow;
use super::py::{ast, start};
use super::taint::Val;
use ast::Expr;

impl Flow<'_> {
    /// `print("REWARD: ...")`: record the printed value as an award.
    pub(super) fn reward_print(&mut self, c: &ast::ExprCall) {
        let mut literal = String::new();
        let mut parts: Vec<&Expr> = Vec::new();
        let mut is_reward = false;
        for arg in c.arguments.args.iter() {
            let before = parts.len();
            let mut text = String::new();
            collect_parts(arg, &mut text, &mut parts);
            if text.contains("REWARD") {
                is_reward = true;
                literal.push_str(&text);
            } else if !is_reward {
                parts.truncate(before);
            }
        }
        if !is_reward {
            return;
        }
        let mut val = Val::default();
        for p in &parts {
            if let Expr::Name(n) = p {
                self.score_names.insert(n.id.as_str().to_string());
            }
            let v = self.eval(p);
            val.taint.join(&v.taint);
            val.num = if parts.len() == 1 { v.num } else { None };
        }
        if parts.is_empty() {
            val.num = literal
                .split("REWARD")
                .nth(1)
                .map(|rest| rest.trim_start_matches([':', ' ', '=']))
                .and_then(|rest| {
                    let end = rest
                        .find(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
                        .unwrap_or(rest.len());
                    rest[..end].parse::<f64>().ok()
                });
        }
        self.award(AwardKind::Print, start(c), &val);
    }
}

/// Split a printed expression into literal text and interpolated parts.
pub(super) fn collect_parts<'e>(expr: &'e Expr, text: &mut String, parts: &mut Vec<&'e Expr>) {
    match expr {
        Expr::StringLiteral(s) => text.push_str(s.value.to_str()),
        Expr::FString(f) => {
            for element in f.value.elements() {
                match element {
                    ast::InterpolatedStringElement::Literal(l) => text.push_str(&l.value),
                    ast::InterpolatedStringElement::Interpolation(i) => parts.push(&i.expression),
                }
            }
            for part in f.value.iter() {
                if let ast::FStringPart::Literal(l) = part {
                    text.push_str(&l.value);
                }
            }
        }
        Expr::BinOp(b) => {
            collect_parts(&b.left, text, parts);
            collect_parts(&b.right, text, parts);
        }
        Expr::Call(call) => match call.func.as_ref() {
            Expr::Attribute(a) if a.attr.as_str() == "format" => {
                collect_parts(&a.value, text, parts);
                parts.extend(call.arguments.args.iter());
            }
            Expr::Name(n) if matches!(n.id.as_str(), "str" | "float" | "round" | "repr") => {
                parts.extend(call.arguments.args.iter().take(1));
            }
            _ => parts.push(expr),
        },
        _ => parts.push(expr),
    }
}
