// The shaders' arrays where the device has no storage buffer in a vertex shader (WebGL2): each
// block replaces the block of the same name in skinning.wgsl, draw.wgsl, mesh.wgsl and
// morph.wgsl (src/render/shaders.rs), with the same bindings and accessors. An array is a
// texture of 32-bit words, four a texel, 1,024 texels a row (render::words); floats are their
// bits, read back exactly by bitcast.

// data: begin palette
@group(1) @binding(0) var palette_words: texture_2d<u32>;

fn palette_texel(t: u32) -> vec4<f32> {
    return bitcast<vec4<f32>>(textureLoad(palette_words, vec2<u32>(t % 1024u, t / 1024u), 0));
}

// Entry i: four texels, one a column.
fn palette_entry(i: u32) -> mat4x4<f32> {
    let t = 4u * i;
    return mat4x4<f32>(palette_texel(t), palette_texel(t + 1u), palette_texel(t + 2u), palette_texel(t + 3u));
}
// data: end

// data: begin draws
@group(0) @binding(1) var draw_words: texture_2d<u32>;

fn draw_texel(t: u32) -> vec4<u32> {
    return textureLoad(draw_words, vec2<u32>(t % 1024u, t / 1024u), 0);
}

// Draw i: eight texels, as the storage buffer lays the struct out (128 bytes).
fn draw_at(i: u32) -> Draw {
    let t = 8u * i;
    let world_from_mesh = mat4x4<f32>(
        bitcast<vec4<f32>>(draw_texel(t)),
        bitcast<vec4<f32>>(draw_texel(t + 1u)),
        bitcast<vec4<f32>>(draw_texel(t + 2u)),
        bitcast<vec4<f32>>(draw_texel(t + 3u)),
    );
    let base_color = bitcast<vec4<f32>>(draw_texel(t + 4u));
    let a = draw_texel(t + 5u);
    let b = draw_texel(t + 6u);
    let c = draw_texel(t + 7u);
    return Draw(world_from_mesh, base_color, a.x, a.y, a.z, a.w, bitcast<f32>(b.x), b.y, b.z, b.w, c.x);
}
// data: end

// data: begin skinned_vertices
@group(1) @binding(1) var skinned_words: texture_2d<u32>;

fn skinned_texel(t: u32) -> vec4<f32> {
    return bitcast<vec4<f32>>(textureLoad(skinned_words, vec2<u32>(t % 1024u, t / 1024u), 0));
}

fn skinned_vertex(i: u32) -> SkinnedVertex {
    let t = 3u * i;
    return SkinnedVertex(skinned_texel(t), skinned_texel(t + 1u), skinned_texel(t + 2u));
}
// data: end

// data: begin morph
@group(3) @binding(0) var morph_active_words: texture_2d<u32>;
@group(3) @binding(1) var morph_position_words: texture_2d<u32>;
@group(3) @binding(2) var morph_normal_words: texture_2d<u32>;
@group(3) @binding(3) var morph_tangent_words: texture_2d<u32>;

// Word `w` of a texture: texel w / 4, lane w % 4.
fn texel_at(w: u32) -> vec2<u32> {
    let t = w / 4u;
    return vec2<u32>(t % 1024u, t / 1024u);
}

fn morph_active_at(i: u32) -> MorphActive {
    let texel = textureLoad(morph_active_words, texel_at(2u * i), 0);
    let pair = select(texel.xy, texel.zw, i % 2u == 1u);
    return MorphActive(pair.x, bitcast<f32>(pair.y));
}

fn position_word(w: u32) -> f32 {
    return bitcast<f32>(textureLoad(morph_position_words, texel_at(w), 0)[w % 4u]);
}

fn normal_word(w: u32) -> f32 {
    return bitcast<f32>(textureLoad(morph_normal_words, texel_at(w), 0)[w % 4u]);
}

fn tangent_word(w: u32) -> f32 {
    return bitcast<f32>(textureLoad(morph_tangent_words, texel_at(w), 0)[w % 4u]);
}

// The three floats of a delta from float `at`.
fn morph_position_delta(at: u32) -> vec3<f32> {
    return vec3<f32>(position_word(at), position_word(at + 1u), position_word(at + 2u));
}

fn morph_normal_delta(at: u32) -> vec3<f32> {
    return vec3<f32>(normal_word(at), normal_word(at + 1u), normal_word(at + 2u));
}

fn morph_tangent_delta(at: u32) -> vec3<f32> {
    return vec3<f32>(tangent_word(at), tangent_word(at + 1u), tangent_word(at + 2u));
}
// data: end
