//! A live motion-capture stream on the loopback address: one BVH MOTION line a UDP datagram
//! (every channel of a `--mocap-skeleton` hierarchy, in its order), each retargeted onto the
//! character (`anim::Retarget`) into an `ExternalFrame` the performer drives the joints with.
//! Native only (std::net); the window and the command line poll it once a frame, without
//! blocking. A malformed datagram is counted and skipped, never fatal.

use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::anim::{ExternalFrame, Handoff, LocalPose, Retarget, RetargetScratch, Skeleton};
use crate::character::Character;
use crate::import::bvh::{self, BvhChannel};

/// The most datagrams one poll reads (the newest valid one is used): a flood cannot hold a
/// frame.
pub const MAX_DATAGRAMS_PER_POLL: usize = 1024;
/// The largest datagram read; a longer one is malformed (a motion line of 4096 joints' six
/// channels fits).
const MAX_DATAGRAM_BYTES: usize = 65_507;

/// Why a stream could not be listened to.
#[derive(Debug, thiserror::Error)]
pub enum MocapError {
    #[error("--mocap-listen {0}: not an address and port (give 127.0.0.1:PORT or [::1]:PORT)")]
    Address(String),
    #[error(
        "--mocap-listen {0}: a stream is received on the loopback address only (127.0.0.1 or ::1)"
    )]
    NotLoopback(SocketAddr),
    #[error("--mocap-listen {address}: {source}")]
    Bind {
        address: SocketAddr,
        source: std::io::Error,
    },
    #[error(transparent)]
    Skeleton(#[from] bvh::BvhError),
    #[error("{}{}", .0, if .0.mapped { "" } else { " (--retarget-map MAP.json)" })]
    NoMatch(#[from] crate::import::NoMatch),
}

/// The shortest wall time the datagram rate is counted over.
const RATE_WINDOW_SECS: f32 = 0.5;

/// What the stream has brought so far (the panel's readout).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MocapStats {
    /// Valid datagrams.
    pub received: u64,
    /// Datagrams skipped: not text, the wrong count of values, a value not a finite number.
    pub malformed: u64,
    /// The last malformed datagram's problem.
    pub last_problem: Option<String>,
    /// Valid datagrams a second, counted over the last half second or more of wall time
    /// (however often the stream is read: a window at 2 frames a second reads several a time).
    pub rate_hz: f32,
}

/// A UDP stream listened to: see the module's documentation.
pub struct MocapListener {
    socket: UdpSocket,
    address: SocketAddr,
    skeleton_file: PathBuf,
    source: Skeleton,
    channels: Vec<Vec<BvhChannel>>,
    channel_count: usize,
    retarget: Retarget,
    scratch: RetargetScratch,
    source_local: LocalPose,
    /// The retargeted frame's layout (the joints driven), and the frames handed out.
    frame: ExternalFrame,
    frames: Handoff<ExternalFrame>,
    buffer: Vec<u8>,
    values: Vec<f32>,
    newest: Vec<f32>,
    /// Where the rate's counting window started, and the valid datagrams since.
    window: (Instant, u32),
    pub stats: MocapStats,
}

/// `text` as a loopback socket address.
pub fn loopback_address(text: &str) -> Result<SocketAddr, MocapError> {
    let address: SocketAddr = text
        .trim()
        .parse()
        .map_err(|_| MocapError::Address(text.to_owned()))?;
    if address.ip().is_loopback() {
        Ok(address)
    } else {
        Err(MocapError::NotLoopback(address))
    }
}

impl MocapListener {
    /// Listens on `address` (loopback only; port 0 picks a free one, see `address()`) for
    /// motion lines of the hierarchy in `skeleton` (a BVH; its frames are not used), retargeted
    /// onto `character` by joint names or `map`.
    pub fn listen(
        address: &str,
        skeleton: &Path,
        character: &Character,
        map: Option<&crate::import::RetargetPlan>,
    ) -> Result<Self, MocapError> {
        let address = loopback_address(address)?;
        let hierarchy = bvh::load(skeleton)?;
        let retarget = crate::import::retarget_onto(&hierarchy.skeleton, character, map, skeleton)?;
        let bind = |source| MocapError::Bind { address, source };
        let socket = UdpSocket::bind(address).map_err(bind)?;
        socket.set_nonblocking(true).map_err(bind)?;
        let address = socket.local_addr().map_err(bind)?;
        let frame = ExternalFrame {
            pose: LocalPose::rest(&character.skeleton),
            rotated: retarget.rotated(),
            moved: retarget.moved(),
        };
        let channel_count = hierarchy.channels.iter().map(Vec::len).sum();
        Ok(Self {
            socket,
            address,
            skeleton_file: skeleton.to_path_buf(),
            scratch: RetargetScratch::new(&hierarchy.skeleton, &character.skeleton),
            source_local: LocalPose::rest(&hierarchy.skeleton),
            source: hierarchy.skeleton,
            channels: hierarchy.channels,
            channel_count,
            retarget,
            frame,
            frames: Handoff::default(),
            buffer: vec![0; MAX_DATAGRAM_BYTES + 1],
            values: Vec::with_capacity(channel_count),
            newest: Vec::with_capacity(channel_count),
            window: (Instant::now(), 0),
            stats: MocapStats::default(),
        })
    }

    /// The address listened on (its port chosen when 0 was asked for).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The hierarchy file the motion lines follow.
    pub fn skeleton_file(&self) -> &Path {
        &self.skeleton_file
    }

    /// How many of the character's joints the stream drives.
    pub fn driven_joints(&self) -> usize {
        self.retarget.matched()
    }

    /// The values a motion line holds (the hierarchy's channels).
    pub fn channel_count(&self) -> usize {
        self.channel_count
    }

    /// Reads the datagrams waiting (at most `MAX_DATAGRAMS_PER_POLL`), without blocking, and
    /// returns the newest valid one retargeted onto `target` (the character's skeleton), or
    /// `None` when none came. Malformed ones are counted in `stats` and skipped.
    pub fn poll(&mut self, target: &Skeleton) -> Option<Arc<ExternalFrame>> {
        let mut got = false;
        for _ in 0..MAX_DATAGRAMS_PER_POLL {
            let n = match self.socket.recv_from(&mut self.buffer) {
                Ok((n, _)) => n,
                // WouldBlock: nothing more waits. Any other error (an ICMP report) ends this
                // poll; the next one tries again.
                Err(_) => break,
            };
            match self.read_line(n) {
                Ok(()) => {
                    std::mem::swap(&mut self.newest, &mut self.values);
                    got = true;
                    self.arrived();
                }
                Err(problem) => {
                    self.stats.malformed += 1;
                    self.stats.last_problem = Some(problem);
                }
            }
        }
        self.measure_rate(Instant::now());
        if !got {
            return None;
        }
        bvh::apply_frame(
            &self.source,
            &self.channels,
            &self.newest,
            &mut self.source_local,
        );
        let from = (&self.source, &self.source_local);
        let frame = self.frames.next_mut(|| self.frame.clone());
        let retargeted = self
            .retarget
            .frame(from, target, &mut self.scratch, &mut frame.pose);
        retargeted.ok()?;
        self.frames.hand_out()
    }

    /// The datagram of `n` bytes in the buffer as a motion line's values.
    fn read_line(&mut self, n: usize) -> Result<(), String> {
        if n > MAX_DATAGRAM_BYTES {
            return Err(format!("a datagram longer than {MAX_DATAGRAM_BYTES} bytes"));
        }
        let text = std::str::from_utf8(&self.buffer[..n])
            .map_err(|_| "a datagram that is not UTF-8 text".to_string())?;
        bvh::motion_values(text, self.channel_count, &mut self.values).map_err(|e| e.to_string())
    }

    /// A valid datagram arrived: counted.
    fn arrived(&mut self) {
        self.stats.received += 1;
        self.window.1 += 1;
    }

    /// The rate, once the counting window has run `RATE_WINDOW_SECS`: its datagrams over its
    /// wall time, and a new window from now.
    fn measure_rate(&mut self, now: Instant) {
        let (start, count) = self.window;
        let secs = now.duration_since(start).as_secs_f32();
        if secs >= RATE_WINDOW_SECS {
            self.stats.rate_hz = count as f32 / secs;
            self.window = (now, 0);
        }
    }
}
