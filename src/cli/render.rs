//! `skinscope render`: a posed character drawn offscreen into a PNG.

use std::path::PathBuf;

use clap::ValueEnum;
use glam::Vec3;
use skinscope::debug::colors::{ColorView, HeatRange};
use skinscope::draw::headless::{self, CameraSpec, FrameRequest};
use skinscope::render::bones::BoneStyle;
use skinscope::render::gpu::Gpu;
use skinscope::render::renderer::{DrawOptions, SkinPass, ToneMap};

use skinscope::pose::PaletteMode;

use super::args::{
    PoseArgs, SkinningArg, parse_fov, parse_positive, parse_rgb, parse_size, parse_vec3,
};

fn parse_crowd(s: &str) -> Result<usize, String> {
    let max = headless::MAX_CROWD;
    match s.trim().parse::<i64>() {
        Ok(n) if (1..=max as i64).contains(&n) => Ok(n as usize),
        Ok(n) => Err(format!("a crowd of {n} is outside 1..={max}")),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

#[derive(clap::Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub pose: PoseArgs,
    /// The image to write: .png, or .jpg / .jpeg; with --to, a sequence: .gif, .png (animated
    /// PNG), .mp4 (through ffmpeg) or numbered PNG files (frames/%04d.png).
    #[arg(long)]
    pub out: PathBuf,
    /// Compare the still with this image (the same size): exit 1 past --tolerance, and write
    /// the difference image beside --out (OUT-diff.png: far-off pixels red, the rest the
    /// difference magnified four times).
    #[arg(long, value_name = "GOLDEN.png")]
    pub golden: Option<PathBuf>,
    /// How far from --golden passes: the mean absolute difference per channel (of 255), then
    /// optionally the share of pixels off by more than 24 in a channel (default 1.5,1%: the
    /// golden images' tolerance of skinscope's own tests).
    #[arg(long, requires = "golden", value_parser = skinscope::debug::golden::Tolerance::parse)]
    pub tolerance: Option<skinscope::debug::golden::Tolerance>,
    #[command(flatten)]
    pub sequence: super::sequence::SequenceArgs,
    /// Image size in pixels.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    pub size: (u32, u32),
    /// Draw the triangles' edges.
    #[arg(long)]
    pub wireframe: bool,
    /// Draw the bones on top (always, for a skeleton without a mesh: a `.bvh`), as sticks (a
    /// bare --bones), Blender's octahedral bones (their roll shows) or each joint's local axes
    /// (X red, Y green, Z blue).
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "stick", require_equals = false)]
    pub bones: Option<BoneStyleArg>,
    /// Draw this joint's local axes (by name or index): alone, with --bones axes, or over the
    /// other bones' shapes (the window's "Selected joint's axes").
    #[arg(long, value_name = "JOINT")]
    pub axes_of: Option<String>,
    /// With --bones axes: each joint's bind axes (from its skin's inverse bind matrix) beside
    /// its posed axes, paler and shorter; a transposed or mirrored inverse bind turns them away.
    #[arg(long)]
    pub bind_axes: bool,
    /// Draw the skeleton as it leaves these stages of the frame over the final pose, one colour
    /// each: raw, root-motion, transition, external, layers, reach-ik, foot-ik, physics
    /// (STAGE[,STAGE...]).
    #[arg(long, value_delimiter = ',', value_parser = super::palette::parse_stage, conflicts_with = "replay")]
    pub stage_ghosts: Vec<skinscope::pose::Stage>,
    /// Draw these joints' motion paths (JOINT[,JOINT...], by name or index): each joint's
    /// origin from --from to --to in clip time (default: the whole clip), a tick every
    /// --path-step and a white diamond at each key; on a still, --from and --to give the
    /// path's range.
    #[arg(long, value_delimiter = ',', conflicts_with = "replay")]
    pub motion_path: Vec<String>,
    /// Onion skins: BEFORE,AFTER,STEP ghosts of the character before and after --time (at most
    /// 10 each side), translucent, warm before and cool after, fainter further away; STEP is a
    /// number of frames of 1/30 s (4), seconds (0.1s) or `keys` (the clip's nearest keys). Each
    /// ghost is posed as --time would pose its time.
    #[arg(long, value_parser = parse_onion, conflicts_with_all = ["simulate", "crowd", "replay"])]
    pub onion: Option<(u32, u32, skinscope::draw::onion::OnionSpacing)>,
    /// Seconds between a motion path's ticks (default 1/30).
    #[arg(long, requires = "motion_path", value_parser = parse_positive)]
    pub path_step: Option<f32>,
    /// The key light's shadow on a solid ground, with contact darkening under the feet (in
    /// place of the grid's lines).
    #[arg(long)]
    pub shadows: bool,
    /// Background colour, R,G,B in 0..255.
    #[arg(long, value_parser = parse_rgb)]
    pub background: Option<[u8; 3]>,
    #[command(flatten)]
    pub environment: super::environment::EnvironmentArgs,
    /// One of the file's cameras, by name or index (instead of --eye).
    #[arg(long, conflicts_with = "eye")]
    pub camera: Option<String>,
    /// Camera position X,Y,Z (default: framed on the clip's whole motion, three-quarter view).
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
    pub eye: Option<Vec3>,
    /// Point looked at X,Y,Z (default: the character's centre).
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
    pub target: Option<Vec3>,
    /// Vertical field of view in degrees (0..180).
    #[arg(long, default_value_t = 45.0, value_parser = parse_fov, allow_hyphen_values = true)]
    pub fov_y: f32,
    /// Near plane distance (greater than 0, less than --far).
    #[arg(long, value_parser = parse_positive, allow_hyphen_values = true)]
    pub near: Option<f32>,
    /// Far plane distance.
    #[arg(long, value_parser = parse_positive, allow_hyphen_values = true)]
    pub far: Option<f32>,
    /// Every mesh flat white on black, no grid or overlays (mask comparisons).
    #[arg(long)]
    pub silhouette: bool,
    /// Colour the mesh for skinning debugging instead of by its materials; the colours' legend
    /// (with the displacement's range) is drawn into the image's top-left corner, on images at
    /// least 200 pixels on each side, and printed.
    #[arg(long, value_enum, default_value = "material")]
    pub color_by: ColorArg,
    /// Where the displacement views' heat scale turns red: a distance in the file's units
    /// (0.01 shows a 1 cm corrective on a character in metres), `largest` (the largest
    /// displacement shown), or by default a part of the size (a tenth; 1% for the muscles).
    #[arg(long, value_parser = parse_color_range, allow_hyphen_values = true)]
    pub color_range: Option<HeatRange>,
    /// Leave the colour legend out of the image (it is still printed).
    #[arg(long)]
    pub no_legend: bool,
    /// Draw this many copies on a grid (1..100000), each at its own phase and weight of a blend
    /// of --clip and --blend's clip (or of --clip alone).
    #[arg(long, value_parser = parse_crowd, allow_hyphen_values = true)]
    pub crowd: Option<usize>,
    /// Level of detail for --crowd over a sequence (--to): members beyond 10, 20 and 40
    /// character heights from the camera are posed every 2nd, 4th and 8th frame, held between.
    #[arg(long, requires = "crowd")]
    pub crowd_lod: bool,
    /// What `--color-by displacement` compares with (only that view): a palette (default
    /// bind), or `clips`: the same frame from the other clips (the compressed ones, or the raw
    /// ones when playing compressed clips): where the compression error lands.
    #[arg(long, value_enum)]
    pub compare: Option<CompareArg>,
    /// Tone mapping (the Khronos Sample Viewer's choices).
    #[arg(long, value_enum, default_value = "neutral")]
    pub tone_map: ToneMapArg,
    /// Exposure in stops (EV): the lit colour is scaled by 2^EV before tone mapping.
    #[arg(long, default_value_t = 0.0, value_parser = parse_exposure, allow_hyphen_values = true)]
    pub exposure: f32,
    /// Linear blend, dual-quaternion (scale applied before the rigid part) or per-joint
    /// (weight-blended, `--dqs-joints`) skinning.
    #[arg(long, value_enum, default_value = "lbs")]
    pub skinning: SkinningArg,
    #[command(flatten)]
    pub ddm: super::ddm::DdmArgs,
    /// Where vertices are skinned: in each pass's vertex shader, once in a compute pass every
    /// pass reads, or auto (the compute pass when its output fits this GPU's buffers: it
    /// measured faster in every case on lavapipe).
    #[arg(long, value_enum, default_value = "auto")]
    pub skin_pass: SkinPassArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoneStyleArg {
    Stick,
    Octahedral,
    Axes,
}

impl From<BoneStyleArg> for BoneStyle {
    fn from(s: BoneStyleArg) -> Self {
        match s {
            BoneStyleArg::Stick => BoneStyle::Stick,
            BoneStyleArg::Octahedral => BoneStyle::Octahedral,
            BoneStyleArg::Axes => BoneStyle::Axes,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SkinPassArg {
    Auto,
    Vertex,
    Compute,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ToneMapArg {
    Neutral,
    Aces,
    None,
}

fn parse_exposure(s: &str) -> Result<f32, String> {
    let v = super::args::parse_finite(s)?;
    if (-16.0..=16.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("an exposure of {v} EV is outside -16..16"))
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CompareArg {
    Animated,
    Bind,
    Identity,
    /// The same frame from the other clips (raw against compressed).
    Clips,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ColorArg {
    Material,
    DominantJoint,
    WeightSum,
    Influences,
    Displacement,
    MorphDisplacement,
    /// How far the muscles (--muscles) moved the skin.
    MuscleDisplacement,
}

impl From<ColorArg> for ColorView {
    fn from(c: ColorArg) -> Self {
        match c {
            ColorArg::Material => ColorView::Material,
            ColorArg::DominantJoint => ColorView::DominantJoint,
            ColorArg::WeightSum => ColorView::WeightSumDeviation,
            ColorArg::Influences => ColorView::InfluenceCount,
            ColorArg::Displacement => ColorView::Displacement,
            ColorArg::MorphDisplacement => ColorView::MorphDisplacement,
            ColorArg::MuscleDisplacement => ColorView::MuscleDisplacement,
        }
    }
}

fn srgb_to_linear(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

impl RenderArgs {
    fn camera(&self, character: &skinscope::character::Character) -> Result<CameraSpec, String> {
        if let Some(key) = &self.camera {
            return super::args::find_camera(character, key).map(CameraSpec::File);
        }
        if let (Some(near), Some(far)) = (self.near, self.far)
            && near >= far
        {
            return Err(format!("--near {near} must be less than --far {far}"));
        }
        if let (Some(eye), Some(target)) = (self.eye, self.target)
            && eye.distance(target) <= f32::EPSILON * eye.length().max(1.0)
        {
            return Err(format!(
                "--eye and --target are the same point ({eye}): the camera looks nowhere"
            ));
        }
        match self.eye {
            Some(eye) => Ok(CameraSpec::Explicit {
                eye,
                target: self.target,
                fov_y_degrees: self.fov_y,
                near: self.near,
                far: self.far,
            }),
            None if self.target.is_some() || self.near.is_some() || self.far.is_some() => {
                Err("--target, --near and --far need --eye".into())
            }
            None => Ok(CameraSpec::Auto {
                fov_y_degrees: self.fov_y,
            }),
        }
    }

    fn draw_options(&self) -> DrawOptions {
        let mut options = DrawOptions {
            wireframe: self.wireframe,
            bones: self.bones.is_some(),
            shadows: self.shadows,
            silhouette: self.silhouette,
            tone_map: match self.tone_map {
                ToneMapArg::Neutral => ToneMap::KhronosNeutral,
                ToneMapArg::Aces => ToneMap::Aces,
                ToneMapArg::None => ToneMap::None,
            },
            exposure_ev: self.exposure,
            environment: self.environment.view(),
            skinning: self.skinning.into(),
            skin_pass: match self.skin_pass {
                SkinPassArg::Auto => SkinPass::Auto,
                SkinPassArg::Vertex => SkinPass::Vertex,
                SkinPassArg::Compute => SkinPass::Compute,
            },
            ..Default::default()
        };
        if let Some(rgb) = self.background {
            options.background = rgb.map(srgb_to_linear);
        }
        options
    }
}

/// Renders the still `args` ask for (a sequence is `record`'s); false when it is past
/// `--tolerance` from `--golden`.
pub fn run(args: &RenderArgs) -> Result<bool, String> {
    if args.motion_path.is_empty() {
        args.sequence.check_still(&args.out)?;
    } else {
        if skinscope::image_file::image_format(&args.out).is_none() {
            return Err(format!(
                "{}: --motion-path draws on a still image (.png, .jpg or .jpeg)",
                args.out.display()
            ));
        }
        // On a still, --from and --to are the path's range.
        let still = super::sequence::SequenceArgs {
            from: None,
            to: None,
            ..args.sequence.clone()
        };
        still.check_still(&args.out)?;
    }
    // The golden image is read before anything is drawn: a missing one is refused at once.
    let golden = args.golden.as_deref().map(read_golden).transpose()?;
    if let Some((size, _)) = &golden
        && *size != args.size
    {
        return Err(format!(
            "--golden {} is {}x{}, the render --size {}x{}",
            args.golden
                .as_deref()
                .unwrap_or(std::path::Path::new(""))
                .display(),
            size.0,
            size.1,
            args.size.0,
            args.size.1
        ));
    }
    if args.crowd_lod {
        return Err(
            "--crowd-lod poses far members every few frames of a sequence: give --to SECS (a \
             still draws every member at its frame)"
                .into(),
        );
    }
    let posing = args.pose.load()?;
    let (character, mut request) = args.frame_request(posing.character, posing.request)?;
    request.overlay = posing.overlay;
    request.recorded = posing.recorded;
    args.debug_overlay(&character, &mut request)?;
    request.ghosts = args.ghosts(&character)?;
    let gpu = Gpu::headless().map_err(|e| e.to_string())?;
    let (pixels, legend) =
        headless::render_frame_and_legend(&gpu, &character, &request).map_err(|e| e.to_string())?;
    skinscope::image_file::write_image(&args.out, args.size, &pixels).map_err(|e| e.to_string())?;
    // What the colours mean (and the displacement's range), as the image's legend says.
    if let Some(legend) = legend {
        super::out::print(&legend.to_text());
    }
    match golden {
        Some((_, golden)) => against_golden(args, &golden, &pixels),
        None => Ok(true),
    }
}

/// The golden image's size and RGBA8 pixels.
fn read_golden(path: &std::path::Path) -> Result<((u32, u32), Vec<u8>), String> {
    // A regular file, checked by its size before it is read (never a FIFO or a device).
    let bytes = skinscope::files::read_capped(path, 1 << 30)
        .map_err(|e| format!("--golden {}: {e}", path.display()))?;
    let image = image::load_from_memory(&bytes)
        .map_err(|e| format!("--golden {}: {e}", path.display()))?
        .to_rgba8();
    Ok((image.dimensions(), image.into_raw()))
}

/// The still against its golden image: said on standard output, the difference image written.
fn against_golden(args: &RenderArgs, golden: &[u8], pixels: &[u8]) -> Result<bool, String> {
    use skinscope::debug::golden;
    let tolerance = args.tolerance.unwrap_or_default();
    let c = golden::compare(golden, pixels);
    let stem = args
        .out
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("render");
    let diff = args.out.with_file_name(format!("{stem}-diff.png"));
    skinscope::image_file::write_png(&diff, args.size, &golden::difference_image(golden, pixels))
        .map_err(|e| e.to_string())?;
    let passed = c.within(tolerance);
    super::out::println(&format!(
        "against {}: mean difference {:.3} (at most {}), {:.2}% of pixels far off (at most {}%): {}; difference image {}",
        args.golden
            .as_deref()
            .unwrap_or(std::path::Path::new(""))
            .display(),
        c.mean,
        tolerance.mean,
        c.far_off * 100.0,
        tolerance.far_off * 100.0,
        if passed {
            "within"
        } else {
            "PAST the tolerance"
        },
        diff.display()
    ));
    Ok(passed)
}

impl RenderArgs {
    /// The frame these options draw of `pose` (the clips compressed first when `--compare
    /// clips` needs them), with the character it is drawn from; warnings logged once.
    pub fn frame_request(
        &self,
        mut character: skinscope::character::Character,
        pose: skinscope::pose::PoseRequest,
    ) -> Result<(skinscope::character::Character, FrameRequest), String> {
        let args = self;
        if let Some(compare) = args.compare
            && !matches!(args.color_by, ColorArg::Displacement)
        {
            return Err(format!(
                "--compare {} applies to --color-by displacement only (this render colours by {})",
                compare
                    .to_possible_value()
                    .map_or(String::new(), |v| v.get_name().to_string()),
                args.color_by
                    .to_possible_value()
                    .map_or(String::new(), |v| v.get_name().to_string()),
            ));
        }
        let view: ColorView = args.color_by.into();
        let displaced = matches!(
            view,
            ColorView::Displacement | ColorView::MorphDisplacement | ColorView::MuscleDisplacement
        );
        if args.color_range.is_some() && !displaced {
            return Err(
                "--color-range sets where a displacement view's heat scale turns red: give \
                 --color-by displacement, morph-displacement or muscle-displacement"
                    .into(),
            );
        }
        let compare = args.compare.unwrap_or(CompareArg::Bind);
        super::ml::check_skinning(&args.pose.ml, args.skinning.into())?;
        if matches!(compare, CompareArg::Clips)
            && character.clips.iter().any(|k| k.compressed.is_none())
        {
            // Comparing with the compressed clips needs them, --compressed or not.
            let settings = skinscope::pose::compression_settings(&character, None);
            skinscope::pose::compress_clips(&mut character, &settings);
        }
        // Notes (glTF's rules the file relies on) are for `inspect`; warnings, once each.
        for w in &character.warnings {
            log::warn!("{}: {w}", character.name);
        }
        let axes_of = (args.axes_of.as_deref())
            .map(|key| super::values::find_joint(&character, key, "--axes-of"))
            .transpose()?;
        let request = FrameRequest {
            size: args.size,
            pose,
            color_view: args.color_by.into(),
            color_range: args.color_range.unwrap_or_default(),
            compare: match compare {
                CompareArg::Animated => PaletteMode::Animated,
                CompareArg::Bind | CompareArg::Clips => PaletteMode::Bind,
                CompareArg::Identity => PaletteMode::Identity,
            },
            compare_clips: matches!(compare, CompareArg::Clips),
            crowd: args.crowd,
            crowd_lod: args.crowd_lod,
            camera: args.camera(&character)?,
            options: DrawOptions {
                // A skeleton without a mesh (a BVH opened on its own) is drawn as its bones.
                bones: args.bones.is_some() || axes_of.is_some() || character.meshes.is_empty(),
                ..args.draw_options()
            },
            legend: !args.no_legend,
            ddm: args.ddm.precompute(&character, args.skinning.into())?,
            environment: args.environment.load()?,
            overlay: Vec::new(),
            bone_view: skinscope::draw::view::BoneView {
                // --axes-of alone draws that joint's axes alone.
                style: args.bones.map_or(
                    if axes_of.is_some() {
                        BoneStyle::Axes
                    } else {
                        BoneStyle::Stick
                    },
                    Into::into,
                ),
                axes: skinscope::render::bones::AxesOptions {
                    only: axes_of,
                    bind: args.bind_axes,
                },
            },
            recorded: None,
            ghosts: Vec::new(),
            vertex_colors: None,
        };
        Ok((character, request))
    }
}

impl RenderArgs {
    /// The stage ghosts and motion paths asked for, as overlay lines of `request`.
    pub fn debug_overlay(
        &self,
        character: &skinscope::character::Character,
        request: &mut FrameRequest,
    ) -> Result<(), String> {
        let width = skinscope::draw::view::bone_width(skinscope::pose::rest_bounds(character));
        if !self.stage_ghosts.is_empty() {
            let mut pose = skinscope::pose::CharacterPose::new(character);
            let mut stages = skinscope::pose::StagePoses::new();
            pose.evaluate_watched(character, &request.pose, &mut stages)
                .map_err(|e| e.to_string())?;
            let mut lines = Vec::new();
            let mut scratch = pose.model.clone();
            skinscope::draw::ghosts::stage_ghost_lines(
                character,
                &stages,
                &self.stage_ghosts,
                width,
                &mut scratch,
                &mut lines,
            );
            request
                .overlay
                .extend(skinscope::draw::ghosts::as_overlay(&lines));
        }
        if !self.motion_path.is_empty() {
            let range = (self.sequence.from, self.sequence.to, self.path_step);
            let found = super::palette::paths_of(character, &self.pose, &self.motion_path, range)?;
            skinscope::draw::ghosts::motion_path_lines(&found.paths, width, &mut request.overlay);
        }
        Ok(())
    }
}

/// `--onion BEFORE,AFTER,STEP`.
fn parse_onion(s: &str) -> Result<(u32, u32, skinscope::draw::onion::OnionSpacing), String> {
    use skinscope::draw::onion::{MAX_ONION_SIDE, OnionSpacing};
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [before, after, step] = parts[..] else {
        return Err(format!("{s:?} is not BEFORE,AFTER,STEP"));
    };
    let side = |v: &str| -> Result<u32, String> {
        match v.parse::<u32>() {
            Ok(n) if n <= MAX_ONION_SIDE => Ok(n),
            _ => Err(format!(
                "{v:?} is not a count of ghosts in 0..={MAX_ONION_SIDE}"
            )),
        }
    };
    let spacing = if step == "keys" {
        OnionSpacing::Keys
    } else if let Some(secs) = step.strip_suffix('s') {
        match secs.parse::<f32>() {
            Ok(v) if v.is_finite() && v > 0.0 => OnionSpacing::Seconds(v),
            _ => return Err(format!("{step:?} is not a positive number of seconds")),
        }
    } else {
        match step.parse::<u32>() {
            Ok(n) if (1..=600).contains(&n) => OnionSpacing::Frames(n),
            _ => {
                return Err(format!(
                    "{step:?} is not a step: frames (4), seconds (0.1s) or keys"
                ));
            }
        }
    };
    Ok((side(before)?, side(after)?, spacing))
}

impl RenderArgs {
    /// The onion skins asked for (`--onion`): each ghost's request, posed as --time would pose
    /// its time, and its tint.
    fn ghosts(
        &self,
        character: &skinscope::character::Character,
    ) -> Result<Vec<(skinscope::pose::PoseRequest, [f32; 4])>, String> {
        use skinscope::draw::onion::{ghost_tint, onion_times};
        let Some((before, after, spacing)) = self.onion else {
            return Ok(Vec::new());
        };
        let now = self.pose.time.unwrap_or(0.0);
        let clip = self.pose.performance(character)?.inputs.clip;
        let keys = clip.map_or_else(Vec::new, |k| skinscope::pose::clip_key_times(character, k));
        onion_times(now, (before, after), spacing, &keys)
            .into_iter()
            .map(|(rank, t)| {
                let request = self.pose.request_at(character, t)?;
                let side = if rank < 0 { before } else { after };
                Ok((request, ghost_tint(rank, side)))
            })
            .collect()
    }
}

/// `--color-range`: a positive distance, or `largest`.
fn parse_color_range(s: &str) -> Result<HeatRange, String> {
    if s.trim() == "largest" {
        return Ok(HeatRange::Largest);
    }
    let d = super::args::parse_finite(s)?;
    if d > 0.0 {
        Ok(HeatRange::Distance(d))
    } else {
        Err(format!("{d} is not a positive distance (or `largest`)"))
    }
}
