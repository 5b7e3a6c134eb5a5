//! MP4 through an `ffmpeg` found on the PATH: raw RGBA frames piped into its standard input,
//! H.264 (yuv420p, the sides padded to even) written to the recording's temporary file.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use super::RecordError;
use crate::files::PartialFile;

/// The `ffmpeg` on the PATH, if there is one.
fn find() -> Option<PathBuf> {
    let name = format!("ffmpeg{}", std::env::consts::EXE_SUFFIX);
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(&name))
        .find(|candidate| candidate.is_file())
}

/// An `ffmpeg` encoding one recording.
pub struct Ffmpeg {
    path: PathBuf,
    file: Option<PartialFile>,
    child: Child,
    stdin: Option<ChildStdin>,
    /// What ffmpeg says on its standard error, read on a thread of its own so a chatty
    /// ffmpeg never blocks on a full pipe.
    said: Option<std::thread::JoinHandle<String>>,
}

impl Ffmpeg {
    pub fn start(path: &Path, (w, h): (u32, u32), fps: u32) -> Result<Self, RecordError> {
        let program = find().ok_or(RecordError::NoFfmpeg)?;
        let file = PartialFile::reserve(path)?;
        let mut child = Command::new(&program)
            .args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"])
            .args(["-f", "rawvideo", "-pix_fmt", "rgba"])
            .args([
                "-video_size",
                &format!("{w}x{h}"),
                "-framerate",
                &fps.to_string(),
            ])
            .args(["-i", "pipe:0"])
            .args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"])
            .args([
                "-c:v",
                "libx264",
                "-pix_fmt",
                "yuv420p",
                "-movflags",
                "+faststart",
            ])
            .args(["-f", "mp4"])
            .arg(file.temporary())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| RecordError::Encode {
                path: path.to_path_buf(),
                what: format!("cannot start {}: {e}", program.display()),
            })?;
        let stdin = child.stdin.take();
        let said = child.stderr.take().map(|mut err| {
            std::thread::spawn(move || {
                let mut text = String::new();
                err.read_to_string(&mut text).ok();
                text
            })
        });
        Ok(Self {
            path: path.to_path_buf(),
            file: Some(file),
            child,
            stdin,
            said,
        })
    }

    pub fn push(&mut self, rgba: &[u8]) -> Result<(), RecordError> {
        let written = match &mut self.stdin {
            Some(stdin) => stdin.write_all(rgba),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|e| {
            // ffmpeg stopped reading: what it said is the reason.
            self.stdin = None;
            self.child.wait().ok();
            self.failure(&format!("ffmpeg stopped taking frames ({e})"))
        })
    }

    pub fn finish(mut self) -> Result<(), RecordError> {
        self.stdin = None;
        let status = self.child.wait().map_err(|e| RecordError::Encode {
            path: self.path.clone(),
            what: format!("ffmpeg: {e}"),
        })?;
        if !status.success() {
            return Err(self.failure(&format!("ffmpeg failed ({status})")));
        }
        match self.file.take() {
            Some(file) => Ok(file.commit()?),
            None => Err(self.failure("the output is gone")),
        }
    }

    fn failure(&mut self, what: &str) -> RecordError {
        let said = self
            .said
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or_default();
        let said: Vec<&str> = said.lines().filter(|l| !l.trim().is_empty()).collect();
        let last = said[said.len().saturating_sub(4)..].join("; ");
        RecordError::Encode {
            path: self.path.clone(),
            what: if last.is_empty() {
                what.to_string()
            } else {
                format!("{what}: {last}")
            },
        }
    }
}

impl Drop for Ffmpeg {
    /// A recording stopped part way stops its ffmpeg (the temporary file goes with `file`).
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            self.child.kill().ok();
        }
        self.child.wait().ok();
    }
}
