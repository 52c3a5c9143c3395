//! A submitted HTML form (fields in order, repeated names kept) and the error an operation
//! returns for bad input.

/// The fields of one `application/x-www-form-urlencoded` submission.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormData(pub Vec<(String, String)>);

/// Bad input to an operation: the text names what was wrong; it is shown in the page's banner.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct OpError(pub String);

impl FormData {
    /// Builds a form from pairs (tests and planners).
    pub fn of(pairs: &[(&str, &str)]) -> FormData {
        FormData(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    /// The first value of a field.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a repeated field (checkbox groups), in order.
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// A field that must be present (its value may be empty).
    pub fn required(&self, name: &str) -> Result<&str, OpError> {
        self.get(name)
            .ok_or_else(|| OpError(format!("the form has no field `{name}`")))
    }

    /// A field that must be present and not blank; `label` names it in the error.
    pub fn non_blank(&self, name: &str, label: &str) -> Result<&str, OpError> {
        let v = self.required(name)?.trim();
        if v.is_empty() {
            Err(OpError(format!("{label} cannot be empty")))
        } else {
            Ok(v)
        }
    }

    /// Whether a checkbox field was ticked (present with any value but `false`).
    pub fn checked(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| v != "false")
    }
}
