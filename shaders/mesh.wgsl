// Skinned meshes: shaded, wireframe and silhouette. Composed after camera.wgsl, morph.wgsl and
// skinning.wgsl.

// One draw: an instance's primitive. `palette_base` is where its skin's palette starts (0: the
// shared identity entry, for unskinned meshes); `morph_first` and `morph_count` are its non-zero
// morph weights in `morph_active`, `morph_vertices` its vertex count (the deltas' stride).
struct Draw {
    world_from_mesh: mat4x4<f32>,
    base_color: vec4<f32>,
    palette_base: u32,
    morph_first: u32,
    morph_count: u32,
    morph_vertices: u32,
    // MASK: fragments with alpha below it are discarded (negative: never).
    alpha_cutoff: f32,
    // BLEND (1): the fragment keeps its alpha; otherwise opaque.
    alpha_blend: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(1) var<storage, read> draws: array<Draw>;
@group(2) @binding(0) var base_color_texture: texture_2d<f32>;
@group(2) @binding(1) var base_color_sampler: sampler;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) joints: vec4<u32>,
    @location(4) weights: vec4<f32>,
    // Debug colour (weights, displacement, ...), used when camera.mode.x is 1.
    @location(5) color: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) @interpolate(flat) draw: u32,
    @location(3) color: vec4<f32>,
}

// The draw index arrives as the instance index (each draw is issued as instance i..i+1).
@vertex
fn vs_main(
    v: VertexIn,
    @builtin(instance_index) draw_index: u32,
    @builtin(vertex_index) vertex: u32,
) -> VertexOut {
    let d = draws[draw_index];
    let m = morph_vertex(d.morph_first, d.morph_count, d.morph_vertices, vertex, v.position, v.normal);
    let skinned = skin_vertex(d.palette_base, m.position, m.normal, v.joints, v.weights);
    let world = d.world_from_mesh * vec4<f32>(skinned.position, 1.0);
    var out: VertexOut;
    out.clip = camera.clip_from_world * world;
    out.normal = (d.world_from_mesh * vec4<f32>(skinned.normal, 0.0)).xyz;
    out.uv = v.uv;
    out.draw = draw_index;
    out.color = v.color;
    return out;
}

// Base colour (texture times factor), a directional light and ambient; two-sided.
@fragment
fn fs_shaded(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let d = draws[in.draw];
    let material = textureSample(base_color_texture, base_color_sampler, in.uv) * d.base_color;
    if material.a < d.alpha_cutoff {
        discard;
    }
    let albedo = select(material, in.color, camera.mode.x == 1u);
    let len = length(in.normal);
    var n = select(vec3<f32>(0.0, 1.0, 0.0), in.normal / len, len > 0.0);
    n = select(-n, n, front);
    let diffuse = max(dot(n, -camera.light_dir.xyz), 0.0);
    let alpha = select(1.0, albedo.a, d.alpha_blend == 1u);
    return vec4<f32>(albedo.rgb * (0.3 + 0.7 * diffuse), alpha);
}

@fragment
fn fs_wireframe(in: VertexOut) -> @location(0) vec4<f32> {
    return vec4<f32>(0.05, 0.05, 0.08, 1.0);
}

@fragment
fn fs_silhouette(in: VertexOut) -> @location(0) vec4<f32> {
    // Cut-outs (MASK) are holes in the silhouette too.
    let d = draws[in.draw];
    let alpha = (textureSample(base_color_texture, base_color_sampler, in.uv) * d.base_color).a;
    if alpha < d.alpha_cutoff {
        discard;
    }
    return vec4<f32>(1.0, 1.0, 1.0, 1.0);
}
