//! MP4 through an `ffmpeg` found on the PATH: raw RGBA frames piped into its standard input,
//! H.264 (yuv420p, the sides padded to even) written to the recording's temporary file.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

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

/// How long ffmpeg may take a frame, or end after the last one, before it is taken as stuck,
/// killed and reported: `SKINSCOPE_FFMPEG_WAIT_SECS` seconds (default 60).
fn patience() -> Duration {
    std::env::var("SKINSCOPE_FFMPEG_WAIT_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(Duration::from_secs(60), Duration::from_secs_f64)
}

/// An `ffmpeg` encoding one recording. Frames go to its standard input from a thread of their
/// own, so an ffmpeg that never reads (or never ends) is found out after `patience()` instead
/// of blocking the recording for ever.
pub struct Ffmpeg {
    path: PathBuf,
    file: Option<PartialFile>,
    /// Shared with `RUNNING`, so that an interrupted run can stop it.
    child: Arc<Mutex<Child>>,
    /// Frames on their way to the writing thread (two at most in flight).
    frames: Option<SyncSender<Vec<u8>>>,
    writing: Option<std::thread::JoinHandle<std::io::Result<()>>>,
    /// What ffmpeg says on its standard error, read on a thread of its own so a chatty
    /// ffmpeg never blocks on a full pipe.
    said: Option<std::thread::JoinHandle<String>>,
    patience: Duration,
}

/// Every ffmpeg started and not yet dropped.
static RUNNING: Mutex<Vec<Arc<Mutex<Child>>>> = Mutex::new(Vec::new());

fn running() -> MutexGuard<'static, Vec<Arc<Mutex<Child>>>> {
    RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kills every ffmpeg still encoding, for a run that ends now (Ctrl-C, SIGTERM): none goes on
/// to write its output after the run has removed its temporary files.
pub fn kill_all() {
    for child in running().iter() {
        let mut child = child.lock().unwrap_or_else(PoisonError::into_inner);
        child.kill().ok();
        child.wait().ok();
    }
}

impl Ffmpeg {
    fn child(&self) -> MutexGuard<'_, Child> {
        self.child.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn start(path: &Path, (w, h): (u32, u32), fps: u32) -> Result<Self, RecordError> {
        let program = find().ok_or(RecordError::NoFfmpeg)?;
        let file = PartialFile::reserve(path)?;
        // Ours before ffmpeg opens it: nothing planted at the name is followed.
        file.create_empty()?;
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
        let (frames, writing) = match child.stdin.take() {
            Some(mut stdin) => {
                let (send, receive) = std::sync::mpsc::sync_channel::<Vec<u8>>(1);
                let writing = std::thread::spawn(move || {
                    for frame in receive {
                        stdin.write_all(&frame)?;
                    }
                    Ok(())
                });
                (Some(send), Some(writing))
            }
            None => (None, None),
        };
        let said = child.stderr.take().map(|mut err| {
            std::thread::spawn(move || {
                let mut text = String::new();
                err.read_to_string(&mut text).ok();
                text
            })
        });
        let child = Arc::new(Mutex::new(child));
        running().push(Arc::clone(&child));
        Ok(Self {
            path: path.to_path_buf(),
            file: Some(file),
            child,
            frames,
            writing,
            said,
            patience: patience(),
        })
    }

    pub fn push(&mut self, rgba: &[u8]) -> Result<(), RecordError> {
        let Some(frames) = &self.frames else {
            return Err(self.stopped());
        };
        let mut frame = rgba.to_vec();
        let since = Instant::now();
        loop {
            match frames.try_send(frame) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Disconnected(_)) => return Err(self.stopped()),
                Err(TrySendError::Full(back)) => frame = back,
            }
            if since.elapsed() > self.patience {
                return Err(self.stuck("took no frame"));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    pub fn finish(mut self) -> Result<(), RecordError> {
        self.frames = None;
        let status = self.wait("did not end after the last frame")?;
        if let Some(Ok(Err(e))) = self.writing.take().map(|t| t.join()) {
            return Err(self.failure(&format!("ffmpeg stopped taking frames ({e})")));
        }
        if !status.success() {
            return Err(self.failure(&format!("ffmpeg failed ({status})")));
        }
        match self.file.take() {
            Some(file) => Ok(file.commit()?),
            None => Err(self.failure("the output is gone")),
        }
    }

    /// ffmpeg's end, waited for at most `patience` (then it is killed as `stuck`).
    fn wait(&mut self, stuck: &str) -> Result<std::process::ExitStatus, RecordError> {
        let since = Instant::now();
        loop {
            let waited = self.child().try_wait();
            match waited {
                Ok(Some(status)) => return Ok(status),
                Ok(None) if since.elapsed() > self.patience => return Err(self.stuck(stuck)),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => {
                    return Err(RecordError::Encode {
                        path: self.path.clone(),
                        what: format!("ffmpeg: {e}"),
                    });
                }
            }
        }
    }

    /// ffmpeg stopped reading: it has ended (or is made to), and what it said is the reason.
    fn stopped(&mut self) -> RecordError {
        self.frames = None;
        if let Err(e) = self.wait("stopped reading frames but did not end") {
            return e;
        }
        let why = match self.writing.take().map(|t| t.join()) {
            Some(Ok(Err(e))) => format!("ffmpeg stopped taking frames ({e})"),
            _ => "ffmpeg stopped taking frames".to_string(),
        };
        self.failure(&why)
    }

    /// ffmpeg neither took nor ended within `patience`: killed, and reported.
    fn stuck(&mut self, what: &str) -> RecordError {
        self.child().kill().ok();
        self.child().wait().ok();
        self.frames = None;
        let waited = self.patience.as_secs_f64();
        self.failure(&format!(
            "ffmpeg {what} in {waited} s (SKINSCOPE_FFMPEG_WAIT_SECS): killed"
        ))
    }

    fn failure(&mut self, what: &str) -> RecordError {
        // What it said, once its standard error closes: at once when it has ended, but a
        // program it started may hold the pipe open, so the wait is bounded.
        let since = Instant::now();
        while self.said.as_ref().is_some_and(|t| !t.is_finished())
            && since.elapsed() < Duration::from_secs(2)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let said = self
            .said
            .take()
            .filter(|t| t.is_finished())
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
        self.frames = None;
        let mut child = self.child();
        if let Ok(None) = child.try_wait() {
            child.kill().ok();
        }
        child.wait().ok();
        drop(child);
        running().retain(|c| !Arc::ptr_eq(c, &self.child));
    }
}
