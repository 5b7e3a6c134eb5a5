//! The renderer's pipelines, per target colour format (the bind group layouts they use are in
//! `layouts`); each pipeline is compiled the first time a frame draws with it.

use super::layouts::Layouts;
use super::lines::LineVertex;
use super::shaders;

pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// A vertex as the mesh pipelines read it.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GpuVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
    /// The first four influences: palette indices as 16 bits (a skin's palette index always
    /// fits: the importer keeps them as u16), and weights.
    pub joints: [u16; 4],
    pub weights: [f32; 4],
    /// Influences five to eight (JOINTS_1 / WEIGHTS_1; zero weights without them).
    pub joints1: [u16; 4],
    pub weights1: [f32; 4],
    pub uv1: [f32; 2],
    /// COLOR_0, linear (white without it).
    pub color: [f32; 4],
    /// xyz and the handedness in w (zero without tangents).
    pub tangent: [f32; 4],
}

const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 10] = wgpu::vertex_attr_array![
    0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Uint16x4, 4 => Float32x4,
    9 => Uint16x4, 10 => Float32x4, 6 => Float32x2, 7 => Float32x4, 8 => Float32x4
];
const COLOR_ATTRIBUTES: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![5 => Float32x4];
const LINE_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];

/// Which faces a triangle pipeline culls: glTF draws single-sided materials with back faces
/// culled, counter-clockwise in front, and flips the winding under a negative determinant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Faces {
    Both,
    FrontCcw,
    FrontCw,
}

impl Faces {
    pub fn index(self) -> usize {
        match self {
            Faces::Both => 0,
            Faces::FrontCcw => 1,
            Faces::FrontCw => 2,
        }
    }

    fn primitive_state(self) -> wgpu::PrimitiveState {
        let (cull_mode, front_face) = match self {
            Faces::Both => (None, wgpu::FrontFace::Ccw),
            Faces::FrontCcw => (Some(wgpu::Face::Back), wgpu::FrontFace::Ccw),
            Faces::FrontCw => (Some(wgpu::Face::Back), wgpu::FrontFace::Cw),
        };
        wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode,
            front_face,
            ..Default::default()
        }
    }
}

/// What a mesh pipeline draws: with `Faces` (for triangles), which pipeline of a vertex stage's
/// family (`Pipelines::mesh`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Shaded: opaque and masked materials.
    Shaded,
    /// Shaded and blended over what is behind (alpha mode BLEND), no depth writes.
    Blended,
    /// The flat silhouette.
    Silhouette,
    /// The triangles' edges as lines (one pipeline, whatever the faces).
    Wireframe,
    /// An onion-skin ghost: its tint, simply lit, blended, no depth writes.
    Ghost,
}

/// Which vertex shader a mesh pipeline runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexStage {
    /// Skinning in the vertex shader (`vs_main`).
    Skinning,
    /// Reading the skin pass's output (`vs_skinned`).
    FromSkinPass,
}

impl VertexStage {
    fn entry(self) -> &'static str {
        match self {
            VertexStage::Skinning => "vs_main",
            VertexStage::FromSkinPass => "vs_skinned",
        }
    }
}

/// The mesh pipelines of one vertex stage, each compiled the first time it draws: a frame uses
/// a few of them (one look, the faces its materials have), and compiling all of them up front
/// was most of a headless render's time on a software driver.
struct MeshPipelines {
    /// Shaded, blended and silhouette by `Faces::index`, the wireframe, then the ghosts.
    compiled: [std::sync::OnceLock<wgpu::RenderPipeline>; 13],
}

impl MeshPipelines {
    fn new() -> Self {
        Self {
            compiled: std::array::from_fn(|_| std::sync::OnceLock::new()),
        }
    }

    fn slot(look: Look, faces: Faces) -> usize {
        match look {
            Look::Shaded => faces.index(),
            Look::Blended => 3 + faces.index(),
            Look::Silhouette => 6 + faces.index(),
            Look::Wireframe => 9,
            Look::Ghost => 10 + faces.index(),
        }
    }
}

/// What draws the shadows: the casters into the shadow maps, and the ground that receives them.
pub struct ShadowPipelines {
    /// Depth alone, both faces, biased: skinning in the vertex shader (`vs_main`, 0) or reading
    /// the skin pass's output (`vs_skinned`, 1).
    pub casters: [wgpu::RenderPipeline; 2],
    /// The solid ground (`ground.wgsl`), blended into the background at its edge.
    pub ground: wgpu::RenderPipeline,
}

pub struct Pipelines {
    /// Mesh pipelines by `VertexStage`, each compiled on first use (`mesh`).
    meshes: [MeshPipelines; 2],
    /// The skin pass itself, built on first use (`ensure_skin_pass`).
    skin_pass: std::sync::OnceLock<wgpu::ComputePipeline>,
    /// The shadows' pipelines, built on first use (`ensure_shadows`).
    shadows: std::sync::OnceLock<ShadowPipelines>,
    /// The environment behind the character, built on first use (`ensure_background`).
    background: std::sync::OnceLock<wgpu::RenderPipeline>,
    mesh: Program,
    line: Program,
    /// The grid hides behind the character (first use: `grid`).
    grid: std::sync::OnceLock<wgpu::RenderPipeline>,
    /// The bones overlay, drawn on top of everything (first use: `overlay`).
    overlay: std::sync::OnceLock<wgpu::RenderPipeline>,
    /// Pipelines compiled so far, each counted once.
    built: std::sync::atomic::AtomicU32,
}

fn depth_state(write: bool, compare: wgpu::CompareFunction) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: Default::default(),
        bias: Default::default(),
    }
}

impl Pipelines {
    pub fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        color_format: wgpu::TextureFormat,
    ) -> Self {
        Self {
            meshes: [MeshPipelines::new(), MeshPipelines::new()],
            skin_pass: std::sync::OnceLock::new(),
            shadows: std::sync::OnceLock::new(),
            background: std::sync::OnceLock::new(),
            mesh: Program::mesh_program(device, layouts, color_format),
            line: Program::line_program(device, layouts, color_format),
            grid: std::sync::OnceLock::new(),
            overlay: std::sync::OnceLock::new(),
            built: std::sync::atomic::AtomicU32::new(0),
        }
    }

    /// Pipelines compiled so far (see `built`).
    pub fn built(&self) -> u32 {
        self.built.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn count(&self, pipelines: u32) {
        self.built
            .fetch_add(pipelines, std::sync::atomic::Ordering::Relaxed);
    }

    /// The mesh pipeline of `stage`, `look` and `faces`, compiled the first time it is asked
    /// for.
    pub fn mesh(
        &self,
        device: &wgpu::Device,
        stage: VertexStage,
        look: Look,
        faces: Faces,
    ) -> &wgpu::RenderPipeline {
        let family = &self.meshes[stage as usize];
        family.compiled[MeshPipelines::slot(look, faces)].get_or_init(|| {
            self.count(1);
            let less = wgpu::CompareFunction::Less;
            let (label, fragment, primitive, depth, blend) = match look {
                Look::Shaded => (
                    "shaded",
                    "fs_shaded",
                    faces.primitive_state(),
                    depth_state(true, less),
                    None,
                ),
                Look::Blended => (
                    "blended",
                    "fs_shaded",
                    faces.primitive_state(),
                    depth_state(false, less),
                    Some(wgpu::BlendState::ALPHA_BLENDING),
                ),
                Look::Silhouette => (
                    "silhouette",
                    "fs_silhouette",
                    faces.primitive_state(),
                    depth_state(true, less),
                    None,
                ),
                Look::Ghost => (
                    "ghost",
                    "fs_ghost",
                    faces.primitive_state(),
                    depth_state(false, less),
                    Some(wgpu::BlendState::ALPHA_BLENDING),
                ),
                Look::Wireframe => (
                    "wireframe",
                    "fs_wireframe",
                    wgpu::PrimitiveState {
                        topology: wgpu::PrimitiveTopology::LineList,
                        ..Default::default()
                    },
                    depth_state(false, wgpu::CompareFunction::LessEqual),
                    None,
                ),
            };
            let entries = [stage.entry(), fragment];
            self.mesh
                .build(device, label, entries, primitive, depth, blend)
        })
    }

    /// The grid's lines, behind the character; compiled the first time.
    pub fn grid(&self, device: &wgpu::Device) -> &wgpu::RenderPipeline {
        self.grid.get_or_init(|| {
            self.count(1);
            self.line
                .line(device, "grid", wgpu::CompareFunction::LessEqual)
        })
    }

    /// The bones overlay, on top of everything; compiled the first time.
    pub fn overlay(&self, device: &wgpu::Device) -> &wgpu::RenderPipeline {
        self.overlay.get_or_init(|| {
            self.count(1);
            self.line
                .line(device, "bones", wgpu::CompareFunction::Always)
        })
    }

    /// The shadows' pipelines, if built.
    pub fn shadows(&self) -> Option<&ShadowPipelines> {
        self.shadows.get()
    }

    /// Builds the shadows' pipelines, the first time: the casters share the mesh pipelines'
    /// shader module under a layout whose group 0 leaves the shadow maps out.
    pub fn ensure_shadows(&self, device: &wgpu::Device, layouts: &Layouts) {
        self.shadows.get_or_init(|| {
            self.count(3);
            let casters = Program {
                module: self.mesh.module.clone(),
                layout: device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("shadow casters"),
                    bind_group_layouts: &[
                        Some(&layouts.caster),
                        Some(&layouts.palette),
                        Some(&layouts.material),
                        Some(&layouts.morph),
                    ],
                    immediate_size: 0,
                }),
                color_format: self.mesh.color_format,
            };
            let ground = Program::new(
                device,
                "ground.wgsl",
                shaders::GROUND,
                &[Some(&layouts.scene)],
                self.mesh.color_format,
            );
            ShadowPipelines {
                casters: ["vs_main", "vs_skinned"].map(|v| casters.caster(device, v)),
                ground: ground.ground(device),
            }
        });
    }

    /// The background's pipeline, if built.
    pub fn background(&self) -> Option<&wgpu::RenderPipeline> {
        self.background.get()
    }

    /// Builds the background's pipeline (`background.wgsl`), the first time: one triangle over
    /// the view, behind everything (no depth test or write).
    pub fn ensure_background(&self, device: &wgpu::Device, layouts: &Layouts) {
        self.background.get_or_init(|| {
            self.count(1);
            let program = Program::new(
                device,
                "background.wgsl",
                shaders::BACKGROUND,
                &[Some(&layouts.scene)],
                self.mesh.color_format,
            );
            let behind = depth_state(false, wgpu::CompareFunction::Always);
            program.vertexless(device, ["vs_background", "fs_background"], behind, None)
        });
    }

    /// The skin pass's compute pipeline, if built.
    pub fn skin_pass(&self) -> Option<&wgpu::ComputePipeline> {
        self.skin_pass.get()
    }

    /// Builds the skin pass's compute pipeline, the first time.
    pub fn ensure_skin_pass(&self, device: &wgpu::Device, layouts: &Layouts) {
        self.skin_pass.get_or_init(|| {
            self.count(1);
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("skin_pass.wgsl"),
                source: wgpu::ShaderSource::Wgsl(shaders::SKIN_PASS.into()),
            });
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("skin pass"),
                bind_group_layouts: &[
                    Some(&layouts.skin_pass),
                    Some(&layouts.skin_palette),
                    None,
                    Some(&layouts.morph),
                ],
                immediate_size: 0,
            });
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("skin pass"),
                layout: Some(&layout),
                module: &module,
                entry_point: Some("cs_skin"),
                compilation_options: Default::default(),
                cache: None,
            })
        });
    }
}

/// What a family of pipelines shares: one shader module and one pipeline layout.
struct Program {
    module: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
    color_format: wgpu::TextureFormat,
}

impl Program {
    fn new(
        device: &wgpu::Device,
        label: &str,
        source: &str,
        groups: &[Option<&wgpu::BindGroupLayout>],
        color_format: wgpu::TextureFormat,
    ) -> Self {
        Self {
            module: device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            }),
            layout: device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: groups,
                immediate_size: 0,
            }),
            color_format,
        }
    }
}

impl Program {
    /// The mesh pipelines' program (`mesh.wgsl` with the camera, draw, morph and skinning
    /// modules).
    fn mesh_program(
        device: &wgpu::Device,
        layouts: &Layouts,
        color_format: wgpu::TextureFormat,
    ) -> Self {
        let groups = [
            Some(&layouts.scene),
            Some(&layouts.palette),
            Some(&layouts.material),
            Some(&layouts.morph),
        ];
        let source = match layouts.data {
            crate::words::DataMode::Storage => std::borrow::Cow::Borrowed(shaders::MESH),
            crate::words::DataMode::Textures => shaders::with_data_textures(shaders::MESH).into(),
        };
        Program::new(device, "mesh.wgsl", &source, &groups, color_format)
    }

    /// A mesh pipeline of `[vertex, fragment]` entry points.
    fn build(
        &self,
        device: &wgpu::Device,
        label: &str,
        entries: [&str; 2],
        primitive: wgpu::PrimitiveState,
        depth: wgpu::DepthStencilState,
        blend: Option<wgpu::BlendState>,
    ) -> wgpu::RenderPipeline {
        let target = wgpu::ColorTargetState {
            format: self.color_format,
            blend,
            write_mask: wgpu::ColorWrites::ALL,
        };
        self.mesh_pipeline(device, label, entries, (primitive, depth), &[Some(target)])
    }

    /// A mesh pipeline drawing into `targets` (none: depth alone).
    fn mesh_pipeline(
        &self,
        device: &wgpu::Device,
        label: &str,
        [vertex, fragment]: [&str; 2],
        (primitive, depth): (wgpu::PrimitiveState, wgpu::DepthStencilState),
        targets: &[Option<wgpu::ColorTargetState>],
    ) -> wgpu::RenderPipeline {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&self.layout),
            vertex: wgpu::VertexState {
                module: &self.module,
                entry_point: Some(vertex),
                compilation_options: Default::default(),
                buffers: &[
                    Some(wgpu::VertexBufferLayout {
                        array_stride: std::mem::size_of::<GpuVertex>() as u64,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &VERTEX_ATTRIBUTES,
                    }),
                    Some(wgpu::VertexBufferLayout {
                        array_stride: 16,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &COLOR_ATTRIBUTES,
                    }),
                ],
            },
            primitive,
            depth_stencil: Some(depth),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &self.module,
                entry_point: Some(fragment),
                compilation_options: Default::default(),
                targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    }

    /// A shadow caster pipeline of `vertex`: depth alone, both faces (a single-sided sheet still
    /// casts), with a slope-scaled bias against acne on the lit side.
    fn caster(&self, device: &wgpu::Device, vertex: &str) -> wgpu::RenderPipeline {
        let depth = wgpu::DepthStencilState {
            bias: wgpu::DepthBiasState {
                constant: 2,
                slope_scale: 2.0,
                clamp: 0.0,
            },
            ..depth_state(true, wgpu::CompareFunction::Less)
        };
        let primitive = Faces::Both.primitive_state();
        self.mesh_pipeline(
            device,
            "shadow caster",
            [vertex, "fs_shadow"],
            (primitive, depth),
            &[],
        )
    }

    /// The ground's pipeline: six vertices from the camera uniform, blended at its fading edge,
    /// writing depth so the characters drawn after it stand on it.
    fn ground(&self, device: &wgpu::Device) -> wgpu::RenderPipeline {
        let depth = depth_state(true, wgpu::CompareFunction::Less);
        let blend = Some(wgpu::BlendState::ALPHA_BLENDING);
        self.vertexless(device, ["vs_ground", "fs_ground"], depth, blend)
    }

    /// A pipeline whose vertex shader makes its vertices from the uniforms (no vertex buffers),
    /// both faces drawn, with `entries` (vertex, fragment), `depth` and `blend`.
    fn vertexless(
        &self,
        device: &wgpu::Device,
        [vertex, fragment]: [&str; 2],
        depth: wgpu::DepthStencilState,
        blend: Option<wgpu::BlendState>,
    ) -> wgpu::RenderPipeline {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(vertex),
            layout: Some(&self.layout),
            vertex: wgpu::VertexState {
                module: &self.module,
                entry_point: Some(vertex),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Faces::Both.primitive_state(),
            depth_stencil: Some(depth),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &self.module,
                entry_point: Some(fragment),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: self.color_format,
                    blend,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

impl Program {
    /// The line pipelines' program (`lines.wgsl` with the camera module).
    fn line_program(
        device: &wgpu::Device,
        layouts: &Layouts,
        color_format: wgpu::TextureFormat,
    ) -> Self {
        Program::new(
            device,
            "lines.wgsl",
            shaders::LINES,
            &[Some(&layouts.line)],
            color_format,
        )
    }

    fn line(
        &self,
        device: &wgpu::Device,
        label: &str,
        depth_compare: wgpu::CompareFunction,
    ) -> wgpu::RenderPipeline {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&self.layout),
            vertex: wgpu::VertexState {
                module: &self.module,
                entry_point: Some("vs_line"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<LineVertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &LINE_ATTRIBUTES,
                })],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::LineList,
                ..Default::default()
            },
            depth_stencil: Some(depth_state(false, depth_compare)),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &self.module,
                entry_point: Some("fs_line"),
                compilation_options: Default::default(),
                targets: &[Some(self.color_format.into())],
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

/// Pipelines built once per device and target format, shared by every renderer made from the
/// cache (a new character, a rebuilt crowd), with the bind group layouts they use.
pub struct PipelineCache {
    layouts: std::sync::Arc<Layouts>,
    by_format: std::sync::Mutex<Vec<(wgpu::TextureFormat, std::sync::Arc<Pipelines>)>>,
}

impl PipelineCache {
    pub fn new(device: &wgpu::Device) -> Self {
        Self::with_layouts(device, Layouts::new(device))
    }

    /// A cache whose pipelines bind their arrays as `data` says (`Layouts::with_data`).
    pub fn with_data(device: &wgpu::Device, data: crate::words::DataMode) -> Self {
        Self::with_layouts(device, Layouts::with_data(device, data))
    }

    fn with_layouts(_device: &wgpu::Device, layouts: Layouts) -> Self {
        Self {
            layouts: std::sync::Arc::new(layouts),
            by_format: std::sync::Mutex::new(Vec::new()),
        }
    }

    pub fn layouts(&self) -> std::sync::Arc<Layouts> {
        self.layouts.clone()
    }

    /// The pipelines for targets of `format`, compiled the first time it is asked for.
    pub fn pipelines(
        &self,
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
    ) -> std::sync::Arc<Pipelines> {
        let mut by_format = self
            .by_format
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, p)) = by_format.iter().find(|(f, _)| *f == format) {
            return p.clone();
        }
        let pipelines = std::sync::Arc::new(Pipelines::new(device, &self.layouts, format));
        by_format.push((format, pipelines.clone()));
        pipelines
    }
}
