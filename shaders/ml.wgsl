// The ML deformer: K morph-like components in bind space, learnt from a costly
// reference deformer (pose::MlModel), whose weights the CPU infers from the pose each frame.
// Added after the morph targets, before skinning; the same sum as MlModel::corrective, the CPU
// reference. Composed after muscle.wgsl (whose uniform holds the weights and whose
// `vertex_words` holds the components), before skin_pass.wgsl.
//
// The components lie in `vertex_words` from word `base`: vertex v's component k at
// base + 3 * (v * count + k), three floats.

// The bind-space corrective of vertex `vertex` under this frame's `count` weights.
fn ml_corrective(base: u32, count: u32, vertex: u32) -> vec3<f32> {
    var d = vec3<f32>(0.0);
    for (var k = 0u; k < min(count, 64u); k++) {
        let at = base + 3u * (vertex * count + k);
        let c = bitcast<vec3<f32>>(vec3<u32>(vertex_words[at], vertex_words[at + 1u], vertex_words[at + 2u]));
        d += muscles.ml_weights[k / 4u][k % 4u] * c;
    }
    return d;
}
