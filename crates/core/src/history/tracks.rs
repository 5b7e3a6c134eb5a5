//! A history's frames as tracks over time (Unreal's Rewind Debugger's): spans of what was
//! chosen (the clip, the state machine's state), curves of weights (the blend, the
//! transition's progress, each layer, the external pose, the ragdoll), and ticks of what
//! happened (fired events, motion matching's switches). Only the tracks with something on them
//! are made.

use super::frame::FrameState;

/// What a track shows.
#[derive(Clone, Debug, PartialEq)]
pub enum TrackKind {
    /// Runs of one value: (start, end, value), in seconds of the history.
    Spans(Vec<(f64, f64, String)>),
    /// A value of 0..1 at each frame: (seconds, value).
    Curve(Vec<[f64; 2]>),
    /// Instants: (seconds, what).
    Ticks(Vec<(f64, String)>),
}

/// One named track.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    pub name: String,
    pub kind: TrackKind,
}

/// Runs of equal `value(frame)` (none where it is `None`): each from its first frame's time to
/// the next run's first.
fn spans<'a>(
    frames: &[&'a FrameState],
    value: impl Fn(&'a FrameState) -> Option<&'a str>,
) -> Vec<(f64, f64, String)> {
    let mut out: Vec<(f64, f64, String)> = Vec::new();
    let mut open: Option<(f64, &str)> = None;
    for f in frames {
        let v = value(f);
        if open.map(|(_, o)| Some(o)) != Some(v) {
            if let Some((start, name)) = open.take() {
                out.push((start, f.time_secs, name.to_string()));
            }
            open = v.map(|v| (f.time_secs, v));
        }
    }
    if let (Some((start, name)), Some(last)) = (open, frames.last()) {
        out.push((start, last.time_secs.max(start), name.to_string()));
    }
    out
}

/// The tracks of `frames`, oldest first.
pub fn tracks<'a>(frames: impl IntoIterator<Item = &'a FrameState>) -> Vec<Track> {
    let frames: Vec<&FrameState> = frames.into_iter().collect();
    let mut out = Vec::new();
    let mut push = |name: &str, kind: TrackKind| {
        let empty = match &kind {
            TrackKind::Spans(v) => v.is_empty(),
            TrackKind::Curve(v) => v.iter().all(|p| p[1] == 0.0),
            TrackKind::Ticks(v) => v.is_empty(),
        };
        if !empty {
            out.push(Track {
                name: name.to_string(),
                kind,
            });
        }
    };
    push(
        "clip",
        TrackKind::Spans(spans(&frames, |f| f.clip.as_deref())),
    );
    let curve = |value: &dyn Fn(&FrameState) -> f32| {
        TrackKind::Curve(
            (frames.iter())
                .map(|f| [f.time_secs, f64::from(value(f))])
                .collect(),
        )
    };
    push("blend", curve(&|f| f.blend.as_ref().map_or(0.0, |b| b.1)));
    push("transition", curve(&|f| f.transition.map_or(0.0, |t| t.0)));
    push(
        "state",
        TrackKind::Spans(spans(&frames, |f| f.state.as_deref())),
    );
    let layers = frames.iter().map(|f| f.layers.len()).max().unwrap_or(0);
    for k in 0..layers {
        let weight = move |f: &FrameState| f.layers.get(k).copied().unwrap_or(0.0);
        push(&format!("layer {}", k + 1), curve(&weight));
    }
    push("external", curve(&|f| f.external_weight));
    push("physics", curve(&|f| f.physics_weight));
    let events = (frames.iter())
        .flat_map(|f| f.events.iter().map(|e| (f.time_secs, e.clone())))
        .collect();
    push("events", TrackKind::Ticks(events));
    let switches = (frames.windows(2))
        .filter_map(|w| {
            let (a, b) = (w[0].matching?, w[1].matching?);
            (b.switches > a.switches).then(|| {
                let frame = b.frame.map_or("-".into(), |f| f.to_string());
                (w[1].time_secs, format!("switch to frame {frame}"))
            })
        })
        .collect();
    push("matching", TrackKind::Ticks(switches));
    out
}
