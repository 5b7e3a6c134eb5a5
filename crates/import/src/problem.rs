//! The error that refuses a file, and the collector of problems while a file is imported.

use std::fmt;
use std::path::PathBuf;

use crate::character::Problem;

/// A file that was refused: every error found, and the warnings seen on the way.
#[derive(Clone, Debug)]
pub struct ImportError {
    pub file: PathBuf,
    pub errors: Vec<Problem>,
    pub warnings: Vec<Problem>,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.display();
        match self.errors.as_slice() {
            [one] => write!(f, "{file}: {one}"),
            many => {
                write!(f, "{file}: {} problems", many.len())?;
                for p in many {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ImportError {}

/// Collects errors and warnings while a file is imported.
#[derive(Default, Debug)]
pub(crate) struct Problems {
    pub errors: Vec<Problem>,
    pub warnings: Vec<Problem>,
    /// What the file relies on that glTF defines but a reader may not expect (a skinned mesh
    /// node's transform being ignored): not a problem, reported by `inspect`.
    pub notes: Vec<Problem>,
}

impl Problems {
    pub fn error(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.errors.push(Problem::new(pointer, message));
    }

    /// An error the glTF-Validator reports with `code`.
    pub fn error_coded(
        &mut self,
        code: &'static str,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.errors.push(Problem::new(pointer, message).coded(code));
    }

    /// A warning the glTF-Validator reports with `code`.
    pub fn warn_coded(
        &mut self,
        code: &'static str,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.warnings
            .push(Problem::new(pointer, message).coded(code));
    }

    /// A note the glTF-Validator reports with `code`.
    pub fn note_coded(
        &mut self,
        code: &'static str,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.notes.push(Problem::new(pointer, message).coded(code));
    }

    pub fn warn(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Problem::new(pointer, message));
    }

    pub fn note(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.notes.push(Problem::new(pointer, message));
    }

    pub fn push_error(&mut self, problem: Problem) {
        self.errors.push(problem);
    }

    /// Runs `f`, recording its error; `None` when it failed.
    pub fn take<T>(&mut self, result: Result<T, Problem>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(p) => {
                self.errors.push(p);
                None
            }
        }
    }
}

/// Converts a gltf-json path (`skins[0].joints[3]`, `attributes["JOINTS_0"]`) to a JSON pointer
/// (`/skins/0/joints/3`, `/attributes/JOINTS_0`).
pub fn json_pointer(path: &str) -> String {
    let mut out = String::new();
    let mut token = String::new();
    let mut chars = path.chars().peekable();
    let flush = |out: &mut String, token: &mut String| {
        if !token.is_empty() {
            out.push('/');
            out.push_str(&token.replace('~', "~0").replace('/', "~1"));
            token.clear();
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '.' => flush(&mut out, &mut token),
            '[' => {
                flush(&mut out, &mut token);
                let quoted = chars.peek() == Some(&'"');
                if quoted {
                    chars.next();
                }
                for c in chars.by_ref() {
                    if (quoted && c == '"') || (!quoted && c == ']') {
                        break;
                    }
                    token.push(c);
                }
                if quoted {
                    // Skip the closing bracket.
                    chars.next();
                }
                flush(&mut out, &mut token);
            }
            c => token.push(c),
        }
    }
    flush(&mut out, &mut token);
    out
}

#[cfg(test)]
mod tests {
    use super::json_pointer;

    #[test]
    fn gltf_paths_become_json_pointers() {
        assert_eq!(json_pointer("skins[0].joints[3]"), "/skins/0/joints/3");
        assert_eq!(
            json_pointer("meshes[1].primitives[0].attributes[\"JOINTS_0\"]"),
            "/meshes/1/primitives/0/attributes/JOINTS_0"
        );
        assert_eq!(json_pointer("scene"), "/scene");
        assert_eq!(json_pointer(""), "");
        assert_eq!(json_pointer("a[\"x/y\"]"), "/a/x~1y");
    }
}

/// A part of the file that was refused, its problem already recorded in `Problems`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded;

/// An optional part of the file: `Ok(None)` when the file has none, `Ok(Some)` read, or
/// `Err(Recorded)` refused (the problem recorded).
pub type Optional<T> = Result<Option<T>, Recorded>;
