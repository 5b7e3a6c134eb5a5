//! The browser page's URL parameters: what the page opens and how it poses the first frame, as
//! the command line's posing options do (`?model=Fox.glb&clip=Walk&time=0.5&size=256x256&
//! panel=0&skinning=dqs`), so a frame seen in a browser can be reproduced there and compared with
//! the native `render` of the same options.
//!
//! Parsed and applied here on every platform (tested natively); the page reads its own URL.

use crate::anim::SkinningMethod;
use crate::debug::colors::ColorView;
use crate::pose::PaletteMode;
use crate::viewer::{UiCommand, Viewer};

/// The graphics API the page asks the browser for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PageBackend {
    /// WebGPU where the browser has an adapter for it, else WebGL2.
    #[default]
    Auto,
    WebGpu,
    /// WebGL2 even where WebGPU works (`backend=webgl2`): the fallback's own view.
    WebGl2,
}

/// The page's URL parameters, each optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageParams {
    /// A model to fetch (relative to the page, or an address of the same origin): a `.glb`, a
    /// `.gltf` (its buffers and images fetched beside it) or a `.bvh`.
    pub model: Option<String>,
    /// A clip by name or index.
    pub clip: Option<String>,
    /// Paused at this clip time in seconds (the command line's `--time`).
    pub time: Option<f32>,
    /// The playback rate (`--speed`).
    pub speed: Option<f32>,
    /// A second clip blended in: `NAME_OR_INDEX:WEIGHT` (`--blend`).
    pub blend: Option<(String, f32)>,
    pub palette: Option<PaletteMode>,
    pub skinning: Option<SkinningMethod>,
    /// The mesh coloured for debugging (`--color-by`'s names).
    pub color: Option<ColorView>,
    /// The canvas's size in CSS pixels (`--size`; default: the whole page).
    pub size: Option<(u32, u32)>,
    /// Whether the panel shows (`panel=0` hides it, as `--no-panel`).
    pub panel: bool,
    pub backend: PageBackend,
    /// The bones drawn over the mesh, and the wireframe (`1` or `0`).
    pub bones: Option<bool>,
    pub wireframe: Option<bool>,
}

/// Reading the parameters, and posing the character shown as they say.
impl PageParams {
    /// Reads a URL's query (`?a=1&b=2`, the leading `?` optional). An unknown name or a value
    /// that does not parse is an error naming it.
    pub fn parse(query: &str) -> Result<Self, String> {
        let mut p = PageParams {
            panel: true,
            ..Default::default()
        };
        let query = query.strip_prefix('?').unwrap_or(query);
        for pair in query.split('&').filter(|s| !s.is_empty()) {
            let (name, raw) = pair.split_once('=').unwrap_or((pair, ""));
            let value =
                decode(raw).ok_or_else(|| format!("URL parameter {name}: {raw:?} is not valid"))?;
            let bad = |what: &str| format!("URL parameter {name}={value:?}: {what}");
            match name {
                "model" => p.model = Some(value.clone()),
                "clip" => p.clip = Some(value.clone()),
                "time" => p.time = Some(finite(&value).ok_or_else(|| bad("not a number"))?),
                "speed" => {
                    let speed = finite(&value).filter(|s| (-10.0..=10.0).contains(s));
                    p.speed = Some(speed.ok_or_else(|| bad("not a speed in -10..10"))?);
                }
                "blend" => {
                    let (clip, weight) = value
                        .rsplit_once(':')
                        .and_then(|(c, w)| Some((c, finite(w)?)))
                        .filter(|(_, w)| (0.0..=1.0).contains(w))
                        .ok_or_else(|| bad("not CLIP:WEIGHT with a weight in 0..1"))?;
                    p.blend = Some((clip.to_string(), weight));
                }
                "palette" => {
                    p.palette = Some(match value.as_str() {
                        "animated" => PaletteMode::Animated,
                        "bind" => PaletteMode::Bind,
                        "identity" => PaletteMode::Identity,
                        _ => return Err(bad("not animated, bind or identity")),
                    })
                }
                "skinning" => {
                    p.skinning = Some(match value.as_str() {
                        "lbs" => SkinningMethod::Linear,
                        "dqs" => SkinningMethod::DualQuaternion,
                        "per-joint" => SkinningMethod::Blended,
                        "ddm" => SkinningMethod::DeltaMush,
                        _ => return Err(bad("not lbs, dqs, per-joint or ddm")),
                    })
                }
                "color" => {
                    p.color = Some(match value.as_str() {
                        "material" => ColorView::Material,
                        "dominant-joint" => ColorView::DominantJoint,
                        "weight-sum" => ColorView::WeightSumDeviation,
                        "influences" => ColorView::InfluenceCount,
                        "displacement" => ColorView::Displacement,
                        "morph-displacement" => ColorView::MorphDisplacement,
                        "muscle-displacement" => ColorView::MuscleDisplacement,
                        _ => return Err(bad("not one of --color-by's names")),
                    })
                }
                "size" => {
                    let size = value
                        .split_once('x')
                        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
                        .filter(|&(w, h)| (16..=8192).contains(&w) && (16..=8192).contains(&h));
                    p.size = Some(size.ok_or_else(|| bad("not WIDTHxHEIGHT, each 16..8192"))?);
                }
                "panel" => p.panel = switch(&value).ok_or_else(|| bad("not 0 or 1"))?,
                "bones" => p.bones = Some(switch(&value).ok_or_else(|| bad("not 0 or 1"))?),
                "wireframe" => p.wireframe = Some(switch(&value).ok_or_else(|| bad("not 0 or 1"))?),
                "backend" => {
                    p.backend = match value.as_str() {
                        "auto" => PageBackend::Auto,
                        "webgpu" => PageBackend::WebGpu,
                        "webgl2" | "webgl" => PageBackend::WebGl2,
                        _ => return Err(bad("not auto, webgpu or webgl2")),
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown URL parameter {name:?} (known: model, clip, time, speed, blend, \
                         palette, skinning, color, size, panel, bones, wireframe, backend)"
                    ));
                }
            }
        }
        Ok(p)
    }

    /// The panel's state set as the parameters say, for the character the viewer shows, and the
    /// commands that finish it (a seek to `time`). A clip the character lacks is an error.
    pub fn pose(&self, viewer: &mut Viewer) -> Result<Vec<UiCommand>, String> {
        let character = &viewer.character;
        let clip = self
            .clip
            .as_deref()
            .map(|k| character.find_clip(k))
            .transpose()?;
        let blend = match &self.blend {
            Some((k, w)) => Some((character.find_clip(k)?, *w)),
            None => None,
        };
        let c = &mut viewer.controls;
        if let Some(clip) = clip {
            c.playback.clip = clip;
        }
        if let Some((other, weight)) = blend {
            c.playback.blend = true;
            c.playback.blend_a = c.playback.clip;
            c.playback.blend_b = other;
            c.playback.blend_weight = weight;
        }
        if let Some(speed) = self.speed {
            c.playback.speed = speed;
        }
        if let Some(palette) = self.palette {
            c.view.palette = palette;
        }
        if let Some(method) = self.skinning {
            c.skinning.method = method;
        }
        if let Some(view) = self.color {
            c.debug.color_view = view;
        }
        if let Some(bones) = self.bones {
            c.view.show_bones = bones;
        }
        if let Some(wireframe) = self.wireframe {
            c.view.wireframe = wireframe;
        }
        c.view.show_panel = self.panel;
        let mut commands = Vec::new();
        if let Some(time) = self.time {
            c.playback.playing = false;
            commands.push(UiCommand::Seek(time));
        }
        Ok(commands)
    }
}

/// `1`/`true` or `0`/`false`.
fn switch(value: &str) -> Option<bool> {
    match value {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

fn finite(value: &str) -> Option<f32> {
    value.trim().parse::<f32>().ok().filter(|v| v.is_finite())
}

/// A query value decoded as `application/x-www-form-urlencoded`: `+` a space, `%XX` a byte.
fn decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_s_example_parses_to_the_command_line_s_options() {
        let p = PageParams::parse(
            "?model=models%2FFox.glb&clip=walk&time=0.5&size=256x256&panel=0&skinning=dqs",
        )
        .unwrap();
        assert_eq!(p.model.as_deref(), Some("models/Fox.glb"));
        assert_eq!(p.clip.as_deref(), Some("walk"));
        assert_eq!(p.time, Some(0.5));
        assert_eq!(p.size, Some((256, 256)));
        assert!(!p.panel);
        assert_eq!(p.skinning, Some(SkinningMethod::DualQuaternion));
        assert_eq!(p.backend, PageBackend::Auto);
        let plain = PageParams::parse("").unwrap();
        assert!(plain.panel && plain.model.is_none() && plain.time.is_none());
    }

    #[test]
    fn a_bad_or_unknown_parameter_is_an_error_naming_it() {
        for (query, says) in [
            ("time=soon", "time=\"soon\": not a number"),
            ("size=12x9000", "size=\"12x9000\": not WIDTHxHEIGHT"),
            ("skinning=cubic", "not lbs, dqs"),
            ("blend=idle:2", "weight in 0..1"),
            ("zoom=2", "unknown URL parameter \"zoom\""),
            ("clip=%zz", "clip: \"%zz\" is not valid"),
        ] {
            let e = PageParams::parse(query).unwrap_err();
            assert!(e.contains(says), "{query}: {e}");
        }
    }

    #[test]
    fn the_parameters_pose_the_built_in_walk_paused_at_half_a_second_in_dual_quaternions() {
        let character = crate::builtin::character().unwrap();
        let mut viewer = Viewer::new(character, None);
        let p = PageParams::parse(
            "clip=walk&time=0.5&skinning=dqs&blend=idle:0.25&palette=bind&color=influences",
        )
        .unwrap();
        let commands = p.pose(&mut viewer).unwrap();
        let c = &viewer.controls;
        let walk = viewer.character.find_clip("walk").unwrap();
        let idle = viewer.character.find_clip("idle").unwrap();
        assert_eq!((c.playback.clip, c.playback.blend_a), (walk, walk));
        assert_eq!((c.playback.blend_b, c.playback.blend_weight), (idle, 0.25));
        assert!(!c.playback.playing && c.playback.blend);
        assert_eq!(c.skinning.method, SkinningMethod::DualQuaternion);
        assert_eq!(c.view.palette, PaletteMode::Bind);
        assert_eq!(c.debug.color_view, ColorView::InfluenceCount);
        viewer.frame(commands, 0.0);
        assert!(
            (viewer.time_secs() - 0.5).abs() < 1e-6,
            "{}",
            viewer.time_secs()
        );
        let e = PageParams::parse("clip=dance")
            .unwrap()
            .pose(&mut viewer)
            .unwrap_err();
        assert!(e.contains("no clip \"dance\""), "{e}");
    }
}
