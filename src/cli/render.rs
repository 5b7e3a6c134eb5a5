//! `skinscope render`: a posed character drawn offscreen into a PNG.

use std::path::PathBuf;

use clap::ValueEnum;
use glam::Vec3;
use skinscope::debug::colors::ColorView;
use skinscope::draw::headless::{self, CameraSpec, FrameRequest};
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::write_png;
use skinscope::render::renderer::DrawOptions;

use super::args::{
    PaletteArg, PoseArgs, parse_fov, parse_positive, parse_rgb, parse_size, parse_vec3,
};

#[derive(clap::Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub pose: PoseArgs,
    /// The PNG to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Image size in pixels.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    pub size: (u32, u32),
    /// Draw the triangles' edges.
    #[arg(long)]
    pub wireframe: bool,
    /// Draw the bones on top.
    #[arg(long)]
    pub bones: bool,
    /// Background colour, R,G,B in 0..255.
    #[arg(long, value_parser = parse_rgb)]
    pub background: Option<[u8; 3]>,
    /// Camera position X,Y,Z (default: framed from the front).
    #[arg(long, value_parser = parse_vec3, allow_negative_numbers = true)]
    pub eye: Option<Vec3>,
    /// Point looked at X,Y,Z (default: the character's centre).
    #[arg(long, value_parser = parse_vec3, allow_negative_numbers = true)]
    pub target: Option<Vec3>,
    /// Vertical field of view in degrees.
    #[arg(long, default_value_t = 45.0, value_parser = parse_fov)]
    pub fov_y: f32,
    /// Near plane distance.
    #[arg(long, value_parser = parse_positive)]
    pub near: Option<f32>,
    /// Far plane distance.
    #[arg(long, value_parser = parse_positive)]
    pub far: Option<f32>,
    /// Every mesh flat white on black, no grid or overlays (mask comparisons).
    #[arg(long)]
    pub silhouette: bool,
    /// Colour the mesh for skinning debugging instead of by its materials.
    #[arg(long, value_enum, default_value = "material")]
    pub color_by: ColorArg,
    /// Draw this many copies on a grid, each at its own phase and weight of a blend of --clip and
    /// --blend's clip (or of --clip alone).
    #[arg(long)]
    pub crowd: Option<usize>,
    /// The palette `--color-by displacement` compares with.
    #[arg(long, value_enum, default_value = "bind")]
    pub compare: PaletteArg,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ColorArg {
    Material,
    DominantJoint,
    WeightSum,
    Influences,
    Displacement,
}

impl From<ColorArg> for ColorView {
    fn from(c: ColorArg) -> Self {
        match c {
            ColorArg::Material => ColorView::Material,
            ColorArg::DominantJoint => ColorView::DominantJoint,
            ColorArg::WeightSum => ColorView::WeightSumDeviation,
            ColorArg::Influences => ColorView::InfluenceCount,
            ColorArg::Displacement => ColorView::Displacement,
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
    fn camera(&self) -> Result<CameraSpec, String> {
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
            bones: self.bones,
            silhouette: self.silhouette,
            ..Default::default()
        };
        if let Some(rgb) = self.background {
            options.background = rgb.map(srgb_to_linear);
        }
        options
    }
}

pub fn run(args: &RenderArgs) -> Result<(), String> {
    let posing = args.pose.load()?;
    let character = &posing.character;
    for w in &character.warnings {
        log::warn!("{}: {w}", character.name);
    }
    let request = FrameRequest {
        size: args.size,
        pose: posing.request,
        color_view: args.color_by.into(),
        compare: args.compare.into(),
        crowd: args.crowd,
        camera: args.camera()?,
        options: args.draw_options(),
    };
    let gpu = Gpu::headless().map_err(|e| e.to_string())?;
    let pixels = headless::render_frame(&gpu, character, &request)?;
    write_png(&args.out, args.size, &pixels)
}
