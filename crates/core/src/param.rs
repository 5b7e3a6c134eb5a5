//! A parameter outside its range, named by its field: the application names it by its own
//! control (the command line's flag, the panel's label).

/// A parameter outside its range: its field's name (`held_out`), the value given and the rule
/// it breaks.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field} {value}: {rule}")]
pub struct ParamError {
    pub field: &'static str,
    pub value: String,
    pub rule: String,
}

impl ParamError {
    pub fn new(field: &'static str, value: impl ToString, rule: impl Into<String>) -> Self {
        Self {
            field,
            value: value.to_string(),
            rule: rule.into(),
        }
    }
}
