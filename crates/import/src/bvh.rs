//! Biovision Hierarchy (BVH) motion capture: a HIERARCHY of ROOT / JOINT / End Site blocks, each
//! with an OFFSET and (joints) CHANNELS in any order and count, then MOTION: `Frames:`, `Frame
//! Time:` and one line of channel values per frame. Read as a skeleton of its own (an End Site is
//! a leaf joint named `<parent> end`) and one clip keyed at every frame: rotations composed from
//! the Euler channels in the order listed (`Zrotation Xrotation Yrotation` is Rz * Rx * Ry),
//! degrees; position channels replace the joint's offset while the clip plays, as three.js's
//! BVHLoader and Blender read them. Every error names its line; nothing is read past the caps.

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};

use crate::anim::{
    Channel, Clip, Interpolation, JointTrack, LocalPose, Skeleton, Track, Transform,
};

/// The most joints a BVH may declare (End Sites included).
pub const MAX_BVH_JOINTS: usize = 4096;
/// The most frames a BVH may declare (an hour at 120 Hz).
pub const MAX_BVH_FRAMES: usize = 432_000;
/// The most channel values (frames times channels) read from one file.
pub const MAX_BVH_VALUES: usize = 50_000_000;
/// The deepest nesting of joints.
const MAX_DEPTH: usize = 256;

/// A BVH file that was refused: the line (1-based; 0 for the file as a whole) and the problem.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}: {}", file.display(), if *line > 0 { format!("line {line}: {message}") } else { message.clone() })]
pub struct BvhError {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

/// A problem at a line, before the file is named.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

impl LineError {
    fn at(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

/// One joint's channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BvhChannel {
    Position(usize),
    Rotation(usize),
}

/// A read BVH: its skeleton, each joint's channels (in the order the motion lines list them),
/// the frame time and the clip of every frame.
#[derive(Clone, Debug)]
pub struct Bvh {
    pub skeleton: Skeleton,
    pub channels: Vec<Vec<BvhChannel>>,
    pub frame_secs: f32,
    pub frames: usize,
    pub clip: Clip,
}

/// Reads a BVH file (at most `files::MAX_MODEL_BYTES`); the clip is named after the file's stem.
pub fn load(path: &Path) -> Result<Bvh, BvhError> {
    load_within(path, &super::Reach::ModelFolder)
}

/// `load`, from the given files when `reach` is theirs.
pub fn load_within(path: &Path, reach: &super::Reach) -> Result<Bvh, BvhError> {
    let refuse = |line, message: String| BvhError {
        file: path.to_path_buf(),
        line,
        message,
    };
    let bytes =
        super::read_within(path, reach, crate::files::MAX_MODEL_BYTES).map_err(|e| refuse(0, e))?;
    // FileError::NotText's words, without copying the bytes into a String.
    let text =
        std::str::from_utf8(&bytes).map_err(|e| refuse(0, format!("is not UTF-8 text: {e}")))?;
    let name = path
        .file_stem()
        .map_or_else(|| "bvh".to_string(), |s| s.to_string_lossy().into_owned());
    parse(text, &name).map_err(|e| refuse(e.line, e.message))
}

/// Words of the text with their line numbers, lazily.
struct Words<'t> {
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'t>>>,
    current: Vec<&'t str>,
    line: usize,
}

impl<'t> Words<'t> {
    fn new(text: &'t str) -> Self {
        Self {
            lines: text.lines().enumerate().peekable(),
            current: Vec::new(),
            line: 0,
        }
    }

    /// The next word and its line, or `None` at the end.
    fn next(&mut self) -> Option<(&'t str, usize)> {
        while self.current.is_empty() {
            let (k, line) = self.lines.next()?;
            self.line = k + 1;
            self.current = line.split_whitespace().rev().collect();
        }
        self.current.pop().map(|w| (w, self.line))
    }

    fn expect(&mut self, what: &str) -> Result<(&'t str, usize), LineError> {
        self.next()
            .ok_or_else(|| LineError::at(self.line, format!("the file ends where {what} was due")))
    }

    fn number(&mut self, what: &str) -> Result<f32, LineError> {
        let (word, line) = self.expect(what)?;
        parse_number(word, line, what)
    }

    /// The rest of the current line's words (after the ones taken).
    fn rest_of_line(&mut self) -> Vec<&'t str> {
        let mut rest = std::mem::take(&mut self.current);
        rest.reverse();
        rest
    }

    /// The next non-empty line's words and its number.
    fn next_line(&mut self) -> Option<(Vec<&'t str>, usize)> {
        for (k, line) in self.lines.by_ref() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if !words.is_empty() {
                self.line = k + 1;
                return Some((words, k + 1));
            }
        }
        None
    }
}

fn parse_number(word: &str, line: usize, what: &str) -> Result<f32, LineError> {
    // A header's label ends in its own colon: `Frame Time: NaN`, not `Frame Time:: NaN`.
    let what = what.trim_end_matches(':');
    let v: f32 = word.parse().map_err(|_| {
        LineError::at(
            line,
            format!("{what}: {:?} is not a number", crate::files::shown(word)),
        )
    })?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(LineError::at(
            line,
            format!("{what}: {v} is not a finite number"),
        ))
    }
}

/// The hierarchy as read: names, parents, offsets, channels.
#[derive(Default)]
struct Hierarchy {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    offsets: Vec<Vec3>,
    channels: Vec<Vec<BvhChannel>>,
}

impl Hierarchy {
    fn channel_count(&self) -> usize {
        self.channels.iter().map(Vec::len).sum()
    }
}

/// Parses BVH text; the clip is called `name`.
pub fn parse(text: &str, name: &str) -> Result<Bvh, LineError> {
    // A byte-order mark (as Windows editors save UTF-8) is not part of the first word.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut words = Words::new(text);
    let (first, line) = words.expect("HIERARCHY")?;
    if !first.eq_ignore_ascii_case("HIERARCHY") {
        return Err(LineError::at(
            line,
            format!(
                "a BVH starts with HIERARCHY, not {:?}",
                crate::files::shown(first)
            ),
        ));
    }
    let mut h = Hierarchy::default();
    let (root, line) = words.expect("ROOT")?;
    if root != "ROOT" {
        return Err(LineError::at(
            line,
            format!("expected ROOT, found {:?}", crate::files::shown(root)),
        ));
    }
    read_joint(&mut words, &mut h, None, 0)?;
    let (motion, line) = words.expect("MOTION")?;
    if motion == "ROOT" {
        return Err(LineError::at(
            line,
            "a second ROOT: this viewer reads one skeleton per file",
        ));
    }
    if motion != "MOTION" {
        return Err(LineError::at(
            line,
            format!("expected MOTION, found {:?}", crate::files::shown(motion)),
        ));
    }
    let frames = read_header(&mut words, "Frames:")?;
    if !(0.0..=MAX_BVH_FRAMES as f32).contains(&frames) || frames.fract() != 0.0 {
        return Err(LineError::at(
            words.line,
            format!("Frames: {frames} is not a whole number in 0..={MAX_BVH_FRAMES}"),
        ));
    }
    let frames = frames as usize;
    let frame_secs = read_header(&mut words, "Frame Time:")?;
    if frame_secs <= 0.0 {
        return Err(LineError::at(
            words.line,
            format!("Frame Time: {frame_secs} must be positive"),
        ));
    }
    let duration_secs = frames.saturating_sub(1) as f32 * frame_secs;
    if duration_secs > 0.0 && duration_secs < crate::anim::MIN_CLIP_SECS {
        return Err(LineError::at(
            words.line,
            format!(
                "Frame Time: {frame_secs}: the take's {frames} frames last {duration_secs} s, \
                 under the 1 ms a clip must last to play"
            ),
        ));
    }
    let per_frame = h.channel_count();
    if frames.saturating_mul(per_frame) > MAX_BVH_VALUES {
        return Err(LineError::at(
            words.line,
            format!(
                "{frames} frames of {per_frame} channels is more than the {MAX_BVH_VALUES} values this viewer reads"
            ),
        ));
    }
    // Each value takes two bytes of text at least: the capacity is bounded by the file, whatever
    // its header declares.
    let mut values = Vec::with_capacity((frames * per_frame).min(text.len() / 2));
    for f in 0..frames {
        let Some((line_words, line)) = words.next_line() else {
            return Err(LineError::at(
                words.line,
                format!("the file ends after {f} of its {frames} frames"),
            ));
        };
        if line_words.len() != per_frame {
            return Err(LineError::at(
                line,
                format!(
                    "frame {f} has {} values; the hierarchy has {per_frame} channels",
                    line_words.len()
                ),
            ));
        }
        for w in line_words {
            values.push(parse_number(w, line, "a channel value")?);
        }
    }
    if let Some((_, line)) = words.next_line() {
        return Err(LineError::at(
            line,
            format!("more motion lines than the {frames} frames declared"),
        ));
    }
    build(h, &values, frames, frame_secs, name)
}

/// `Frames: N` or `Frame Time: S` (the label's words, then a number).
fn read_header(words: &mut Words<'_>, label: &str) -> Result<f32, LineError> {
    for part in label.split(' ') {
        let (w, line) = words.expect(label)?;
        if !w.eq_ignore_ascii_case(part) {
            return Err(LineError::at(
                line,
                format!("expected {label:?}, found {:?}", crate::files::shown(w)),
            ));
        }
    }
    words.number(label)
}

/// A ROOT or JOINT block (its keyword already read): name, `{`, OFFSET, CHANNELS, children.
fn read_joint(
    words: &mut Words<'_>,
    h: &mut Hierarchy,
    parent: Option<usize>,
    depth: usize,
) -> Result<(), LineError> {
    let line = words.line;
    if depth > MAX_DEPTH {
        return Err(LineError::at(
            line,
            format!("joints nest deeper than {MAX_DEPTH}"),
        ));
    }
    // The name is the rest of the line (names may hold spaces).
    let name = words.rest_of_line().join(" ");
    if name.is_empty() {
        return Err(LineError::at(line, "a joint without a name"));
    }
    let index = push_joint(h, name, parent, line)?;
    open_brace(words)?;
    let offset = read_offset(words)?;
    h.offsets[index] = offset;
    let (word, line) = words.expect("CHANNELS")?;
    if word != "CHANNELS" {
        return Err(LineError::at(
            line,
            format!("expected CHANNELS, found {:?}", crate::files::shown(word)),
        ));
    }
    let count = words.number("the channel count")?;
    if !(0.0..=6.0).contains(&count) || count.fract() != 0.0 {
        return Err(LineError::at(
            line,
            format!("{count} channels: a joint has 0 to 6"),
        ));
    }
    for _ in 0..count as usize {
        let (c, line) = words.expect("a channel name")?;
        let channel = match c.to_ascii_lowercase().as_str() {
            "xposition" => BvhChannel::Position(0),
            "yposition" => BvhChannel::Position(1),
            "zposition" => BvhChannel::Position(2),
            "xrotation" => BvhChannel::Rotation(0),
            "yrotation" => BvhChannel::Rotation(1),
            "zrotation" => BvhChannel::Rotation(2),
            _ => {
                return Err(LineError::at(
                    line,
                    format!(
                        "{:?} is not a channel (Xposition ... Zrotation)",
                        crate::files::shown(c)
                    ),
                ));
            }
        };
        if h.channels[index].contains(&channel) {
            return Err(LineError::at(line, format!("channel {c} is listed twice")));
        }
        h.channels[index].push(channel);
    }
    loop {
        let (word, line) = words.expect("JOINT, End Site or }")?;
        match word {
            "JOINT" => read_joint(words, h, Some(index), depth + 1)?,
            "End" => {
                let (site, line) = words.expect("Site")?;
                if site != "Site" {
                    return Err(LineError::at(
                        line,
                        format!("expected End Site, found End {site:?}"),
                    ));
                }
                let end = push_joint(h, format!("{} end", h.names[index]), Some(index), line)?;
                open_brace(words)?;
                h.offsets[end] = read_offset(words)?;
                let (close, line) = words.expect("}")?;
                if close != "}" {
                    return Err(LineError::at(line, "an End Site holds only its OFFSET"));
                }
            }
            "}" => return Ok(()),
            other => {
                return Err(LineError::at(
                    line,
                    format!(
                        "expected JOINT, End Site or }}, found {:?}",
                        crate::files::shown(other)
                    ),
                ));
            }
        }
    }
}

fn push_joint(
    h: &mut Hierarchy,
    name: String,
    parent: Option<usize>,
    line: usize,
) -> Result<usize, LineError> {
    if h.names.len() >= MAX_BVH_JOINTS {
        return Err(LineError::at(
            line,
            format!("more than {MAX_BVH_JOINTS} joints"),
        ));
    }
    if h.names.contains(&name) {
        return Err(LineError::at(
            line,
            format!("a second joint named {:?}", crate::files::shown(&name)),
        ));
    }
    h.names.push(name);
    h.parents.push(parent);
    h.offsets.push(Vec3::ZERO);
    h.channels.push(Vec::new());
    Ok(h.names.len() - 1)
}

fn open_brace(words: &mut Words<'_>) -> Result<(), LineError> {
    let (w, line) = words.expect("{")?;
    if w == "{" {
        Ok(())
    } else {
        Err(LineError::at(
            line,
            format!("expected {{, found {:?}", crate::files::shown(w)),
        ))
    }
}

fn read_offset(words: &mut Words<'_>) -> Result<Vec3, LineError> {
    let (w, line) = words.expect("OFFSET")?;
    if w != "OFFSET" {
        return Err(LineError::at(
            line,
            format!("expected OFFSET, found {:?}", crate::files::shown(w)),
        ));
    }
    Ok(Vec3::new(
        words.number("OFFSET x")?,
        words.number("OFFSET y")?,
        words.number("OFFSET z")?,
    ))
}

/// A rotation of `degrees` about axis `axis` (0 x, 1 y, 2 z).
fn axis_rotation(axis: usize, degrees: f32) -> Quat {
    let radians = degrees.to_radians();
    match axis {
        0 => Quat::from_rotation_x(radians),
        1 => Quat::from_rotation_y(radians),
        _ => Quat::from_rotation_z(radians),
    }
}

/// One motion line's `values` (every channel, in the hierarchy's order) as `skeleton`'s local
/// pose in `out`: each joint at its offset (position channels replace it), rotated by its Euler
/// channels composed in the order listed. `values` shorter than the channels leaves the rest
/// as they were.
pub fn apply_frame(
    skeleton: &Skeleton,
    channels: &[Vec<BvhChannel>],
    values: &[f32],
    out: &mut LocalPose,
) {
    let mut values = values.iter();
    let locals = out.as_mut_slice();
    for ((local, rest), joint_channels) in locals.iter_mut().zip(skeleton.rest()).zip(channels) {
        let mut rotation = Quat::IDENTITY;
        let mut translation = rest.translation;
        for (channel, &x) in joint_channels.iter().zip(values.by_ref()) {
            match *channel {
                BvhChannel::Rotation(axis) => rotation *= axis_rotation(axis, x),
                BvhChannel::Position(axis) => translation[axis] = x,
            }
        }
        local.rotation = rotation;
        local.translation = translation;
    }
}

/// Why a motion line (a datagram's text) was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MotionLineError {
    #[error("more than the {channels} values the hierarchy has channels for")]
    TooMany { channels: usize },
    #[error("{word:?} is not a finite number")]
    NotANumber { word: String },
    #[error("{values} values; the hierarchy has {channels} channels")]
    TooFew { values: usize, channels: usize },
}

/// The numbers of one motion line (a datagram's text) into `out`: exactly `count` finite
/// numbers, or the problem.
pub fn motion_values(line: &str, count: usize, out: &mut Vec<f32>) -> Result<(), MotionLineError> {
    out.clear();
    for word in line.split_whitespace() {
        if out.len() == count {
            return Err(MotionLineError::TooMany { channels: count });
        }
        match word.parse::<f32>() {
            Ok(v) if v.is_finite() => out.push(v),
            _ => {
                let word = crate::files::shown(word).to_string();
                return Err(MotionLineError::NotANumber { word });
            }
        }
    }
    if out.len() == count {
        Ok(())
    } else {
        Err(MotionLineError::TooFew {
            values: out.len(),
            channels: count,
        })
    }
}

/// The skeleton (offsets as rest translations) and the clip keyed at every frame.
fn build(
    h: Hierarchy,
    values: &[f32],
    frames: usize,
    frame_secs: f32,
    name: &str,
) -> Result<Bvh, LineError> {
    let rest: Vec<Transform> = h
        .offsets
        .iter()
        .map(|&t| Transform {
            translation: t,
            ..Transform::IDENTITY
        })
        .collect();
    let skeleton = Skeleton::new(h.names.clone(), h.parents.clone(), rest)
        .map_err(|e| LineError::at(0, e.to_string()))?;
    let per_frame = h.channel_count();
    let times: Vec<f32> = (0..frames).map(|f| f as f32 * frame_secs).collect();
    let rotates = |j: usize| {
        h.channels[j]
            .iter()
            .any(|c| matches!(c, BvhChannel::Rotation(_)))
    };
    let moves = |j: usize| {
        h.channels[j]
            .iter()
            .any(|c| matches!(c, BvhChannel::Position(_)))
    };
    let n = h.names.len();
    let mut rotations: Vec<Vec<Quat>> = (0..n)
        .map(|j| Vec::with_capacity(if rotates(j) { frames } else { 0 }))
        .collect();
    let mut positions: Vec<Vec<Vec3>> = (0..n)
        .map(|j| Vec::with_capacity(if moves(j) { frames } else { 0 }))
        .collect();
    let mut local = LocalPose::rest(&skeleton);
    for f in 0..frames {
        apply_frame(
            &skeleton,
            &h.channels,
            &values[f * per_frame..(f + 1) * per_frame],
            &mut local,
        );
        for (j, t) in local.as_slice().iter().enumerate() {
            if rotates(j) {
                rotations[j].push(t.rotation);
            }
            if moves(j) {
                positions[j].push(t.translation);
            }
        }
    }
    let mut tracks = Vec::new();
    let refused = |j: usize, e: crate::anim::TrackError| {
        LineError::at(0, format!("joint {}: {e}", h.names[j]))
    };
    for (joint, (r, p)) in rotations.into_iter().zip(positions).enumerate() {
        if frames > 0 && rotates(joint) {
            let track = Track::new(times.clone(), r, Interpolation::Linear)
                .map_err(|e| refused(joint, e))?;
            tracks.push(JointTrack {
                joint,
                channel: Channel::Rotation(track),
            });
        }
        if frames > 0 && moves(joint) {
            let track = Track::new(times.clone(), p, Interpolation::Linear)
                .map_err(|e| refused(joint, e))?;
            tracks.push(JointTrack {
                joint,
                channel: Channel::Translation(track),
            });
        }
    }
    let clip = Clip::new(name, h.names.len(), tracks, Vec::new())
        .map_err(|e| LineError::at(0, e.to_string()))?;
    Ok(Bvh {
        skeleton,
        channels: h.channels,
        frame_secs,
        frames,
        clip,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same rotation within 1e-5 (either sign).
    fn close(a: Quat, b: Quat) -> bool {
        (a - b).length().min((a + b).length()) < 1e-5
    }

    const TWO_JOINTS: &str = "HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 5 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.5
1 90 3 0 0 0 90 0 0
1 92 3 0 90 0 0 30 45
";

    #[test]
    fn a_hierarchy_and_its_frames_become_a_skeleton_and_a_clip() {
        let bvh = parse(TWO_JOINTS, "walk").unwrap();
        assert_eq!(bvh.skeleton.names(), ["Hips", "Spine", "Spine end"]);
        assert_eq!(bvh.skeleton.parents(), [None, Some(0), Some(1)]);
        assert_eq!(
            bvh.skeleton.rest()[1].translation,
            Vec3::new(0.0, 10.0, 0.0)
        );
        assert_eq!(bvh.skeleton.rest()[2].translation, Vec3::new(0.0, 5.0, 0.0));
        assert_eq!((bvh.frames, bvh.frame_secs), (2, 0.5));
        assert_eq!(bvh.clip.name(), "walk");
        assert!((bvh.clip.duration_secs() - 0.5).abs() < 1e-6);
        // Frame 0: the hips at (1, 90, 3), unrotated; the spine 90 degrees about Z.
        let mut pose = crate::anim::LocalPose::rest(&bvh.skeleton);
        let mut cursor = crate::anim::ClipCursor::new(&bvh.clip);
        crate::anim::sample_clip(&bvh.skeleton, &bvh.clip, 0.0, &mut cursor, &mut pose).unwrap();
        let hips = pose.as_slice()[0];
        assert!((hips.translation - Vec3::new(1.0, 90.0, 3.0)).length() < 1e-6);
        assert!(close(hips.rotation, Quat::IDENTITY));
        let spine = pose.as_slice()[1].rotation;
        assert!(close(spine, Quat::from_rotation_z(90f32.to_radians())));
        // Frame 1: the hips' channels Z 0, X 90, Y 0; the spine's Z 0, X 30, Y 45, composed in
        // the order listed: Rz * Rx * Ry.
        crate::anim::sample_clip(&bvh.skeleton, &bvh.clip, 0.5, &mut cursor, &mut pose).unwrap();
        let hips = pose.as_slice()[0];
        assert!((hips.translation - Vec3::new(1.0, 92.0, 3.0)).length() < 1e-5);
        assert!(close(
            hips.rotation,
            Quat::from_rotation_x(90f32.to_radians())
        ));
        let want =
            Quat::from_rotation_x(30f32.to_radians()) * Quat::from_rotation_y(45f32.to_radians());
        assert!(close(pose.as_slice()[1].rotation, want));
        // The End Site has no channels.
        assert!(bvh.channels[2].is_empty());
    }

    #[test]
    fn the_order_of_the_rotation_channels_is_the_order_of_composition() {
        // The same angles listed XYZ and ZYX give Rx*Ry*Rz and Rz*Ry*Rx.
        let file = |order: &str| {
            format!(
                "HIERARCHY\nROOT A\n{{\nOFFSET 0 0 0\nCHANNELS 3 {order}\n}}\nMOTION\nFrames: 1\nFrame Time: 0.1\n10 20 30\n"
            )
        };
        let rotation = |order: &str| {
            let bvh = parse(&file(order), "x").unwrap();
            let mut pose = crate::anim::LocalPose::rest(&bvh.skeleton);
            let mut cursor = crate::anim::ClipCursor::new(&bvh.clip);
            crate::anim::sample_clip(&bvh.skeleton, &bvh.clip, 0.0, &mut cursor, &mut pose)
                .unwrap();
            pose.as_slice()[0].rotation
        };
        let (x, y, z) = (10f32.to_radians(), 20f32.to_radians(), 30f32.to_radians());
        let xyz = Quat::from_rotation_x(x) * Quat::from_rotation_y(y) * Quat::from_rotation_z(z);
        assert!(close(rotation("Xrotation Yrotation Zrotation"), xyz));
        // Listed Z Y X, the values are z = 10, y = 20, x = 30.
        let zyx = Quat::from_rotation_z(x) * Quat::from_rotation_y(y) * Quat::from_rotation_x(z);
        assert!(close(rotation("Zrotation Yrotation Xrotation"), zyx));
        assert!(xyz.angle_between(zyx) > 0.05);
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let cases: [(String, usize, &str); 8] = [
            ("ROOT A".into(), 1, "starts with HIERARCHY"),
            (
                TWO_JOINTS.replace("OFFSET 0 10 0", "OFFSET 0 ten 0"),
                8,
                "\"ten\" is not a number",
            ),
            (
                TWO_JOINTS.replace("CHANNELS 3 Zrotation", "CHANNELS 3 Wrotation"),
                9,
                "is not a channel",
            ),
            (
                TWO_JOINTS.replace("Frames: 2", "Frames: 3"),
                20,
                "ends after 2 of its 3 frames",
            ),
            (
                TWO_JOINTS.replace("1 92 3 0 90 0 0 30 45", "1 92 3 0 90 0 0 30"),
                20,
                "has 8 values",
            ),
            (
                TWO_JOINTS.replace("Frame Time: 0.5", "Frame Time: 0"),
                18,
                "must be positive",
            ),
            (
                TWO_JOINTS.replace("1 90 3", "1 NaN 3"),
                19,
                "not a finite number",
            ),
            (
                TWO_JOINTS.replace("JOINT Spine", "JOINT Hips"),
                6,
                "a second joint named \"Hips\"",
            ),
        ];
        for (text, line, says) in cases {
            let e = parse(&text, "x").unwrap_err();
            assert_eq!(e.line, line, "{says}: {e:?}");
            assert!(e.message.contains(says), "{says}: {e:?}");
        }
        // Truncated anywhere: an error, never a panic.
        for cut in 0..TWO_JOINTS.len() {
            if TWO_JOINTS.is_char_boundary(cut) {
                let _ = parse(&TWO_JOINTS[..cut], "x");
            }
        }
        // A header declaring more than the caps is refused; one within them allocates no more
        // than the text can hold (400,000 frames declared, a short file: its first line is read
        // and found wrong).
        let over = TWO_JOINTS.replace("Frames: 2", "Frames: 500000");
        assert!(
            parse(&over, "x")
                .unwrap_err()
                .message
                .contains("0..=432000")
        );
        let declared = TWO_JOINTS
            .replace("Frames: 2", "Frames: 400000")
            .replace("CHANNELS 3 Z", "CHANNELS 6 Xposition Yposition Zposition Z");
        let e = parse(&declared, "x").unwrap_err();
        assert_eq!(e.line, 19);
        assert!(
            e.message
                .contains("frame 0 has 9 values; the hierarchy has 12 channels"),
            "{e:?}"
        );
    }

    #[test]
    fn a_file_is_named_in_its_error_and_read_within_the_caps() {
        let dir = std::env::temp_dir().join(format!("skinscope-bvh-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("take 01.bvh");
        std::fs::write(&path, TWO_JOINTS.replace("OFFSET 0 5 0", "OFFSET 0 5")).unwrap();
        let e = load(&path).unwrap_err();
        assert_eq!(e.line, 13);
        assert!(e.to_string().contains("take 01.bvh: line 13:"), "{e}");
        std::fs::write(&path, TWO_JOINTS).unwrap();
        let bvh = load(&path).unwrap();
        assert_eq!(bvh.clip.name(), "take 01");
        // No frames: a skeleton and an empty clip.
        std::fs::write(
            &path,
            TWO_JOINTS.split("Frames").next().unwrap().to_owned() + "Frames: 0\nFrame Time: 0.1\n",
        )
        .unwrap();
        let still = load(&path).unwrap();
        assert_eq!((still.frames, still.clip.tracks().len()), (0, 0));
        let e = load(&dir).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
