// SPDX-License-Identifier: MIT
// The network trainer's core (docs/NNUE.md): a (768 -> H) x 2 -> 1 network with SCReLU
// and B output buckets (nnue_bucket: one output layer per range of piece counts), its loss
// and exact gradient, AdamW, checkpoints and the quantised export. tools/train.c is the
// command line around it; tests/test_train.c checks the gradient, the export and that
// training lowers the loss.
#ifndef OUTPOST_NNUE_TRAIN_H
#define OUTPOST_NNUE_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue.h"
#include "packpos.h"

// The inputs, the quantisation and the exported file are nnue_format.h's.
enum { NN_MAX_FEATURES = 32 };

// Weights are kept within +-NN_CLIP so that the quantised int16 sums cannot overflow.
#define NN_CLIP 1.98f

// The float network: every parameter in one array p, reached through the views below.
typedef struct {
    int hidden, buckets;
    NnueInputs in; // the input layer: plain 768, or king buckets (nnue_format.h)
    // King buckets factorised (training only): 768 more rows after the buckets' rows,
    // shared by every bucket, so that what a piece on a square is worth wherever the
    // king stands is learnt from every position, not once per bucket. Each active
    // feature adds its bucket's row and its shared row; the export adds the two.
    bool factor;
    size_t n_params;
    float *p;
    float *ft_w;  // [nnue_input_count(&in) (+ 768 when factor)][hidden], feature-major
    float *ft_b;  // [hidden]
    float *out_w; // [buckets][2 * hidden]: side to move's accumulator first
    float *out_b; // [buckets]
} Net;

// One training sample: the active features of both perspectives, side to move first
// (n of them: the number of pieces, which picks the output bucket), and the target (a
// probability of winning for the side to move).
typedef struct {
    int n;
    uint16_t us[NN_MAX_FEATURES], them[NN_MAX_FEATURES];
    float target;
} Sample;

// Allocates a network with small random weights (seeded) and zero biases; in NULL for
// the plain inputs.
bool nn_alloc(Net *net, const NnueInputs *in, int hidden, int buckets, uint64_t seed);

// The built-in king layouts of 1, 2, 4 or 8 buckets (finer on the back rank, where the
// king lives): 2 = back rank / the rest; 4 = g-h and e-f on the back rank, the second
// rank, the rest; 8 = each back-rank square e-h, e-f and g-h on the second rank, ranks
// 3-4, the rest. False for another count.
bool nn_king_layout(int kbuckets, NnueInputs *out);
// Gives a king-bucketed network its shared (factor) rows, zero to start, so that it
// computes what it did. False for a network without king buckets or already factorised,
// or out of memory.
bool nn_add_factor(Net *net);
// Moves each feature's mean over the buckets' rows into its shared row, so that the
// buckets' own rows hold only how each differs from the others (what -R decays); the
// network computes what it did. For a factorised network (an export factorised again).
void nn_share_mean(Net *net);
void nn_free(Net *net);
// Multiplies the network's output (every bucket's output weights and bias) by f, so
// that it computes f times what it did: a network whose evaluations drifted to a larger
// scale than the one the search's margins were fitted to is brought back to it
// (tools/netscale). Weights stay within +-NN_CLIP; returns how many were clipped.
size_t nn_scale_output(Net *net, float f);
// Rounds every output weight to the export's grid (1 / nn_export_qb), as nn_export would, so
// that the export keeps them exactly; returns how many changed. The grid is coarse for a
// wide network (rounding them cost G-ft2, H 512, 1.3 % of its held-out loss while the
// feature layer's rounding cost nothing): train -Q rounds them first and then trains the
// rest with them fixed (Adam.fixed_output), so the feature layer learns to make up for it.
size_t nn_snap_output(Net *net);

// Builds a sample from a record, its features those of the inputs `in` (NULL: the plain
// 768); wdl is the weight of the game result in the target (the rest is sigmoid(score /
// NNUE_SCALE)). False when the record is one training skips: in check, a noisy best
// move, a mate score (or a malformed record).
bool nn_sample(const PackedPos *rec, float wdl, const NnueInputs *in, Sample *out);


// Whether the i-th record of a file (from 0) is held out: blocks of 128 consecutive
// records (one or two games) one time in 32, counted from the file's start, so held-out
// positions come from games never trained on and a file's split does not move when a file
// read before it grows.
static inline bool nn_held_out(size_t i) { return i / 128 % 32 == 31; }

// Decodes a record that nn_sample accepted, without checking it again (fast: no FEN);
// with `mirror`, as the position reflected left to right (files a <-> h), which the
// network's inputs (no castling rights) cannot tell from a position of equal value.
void nn_decode(const PackedPos *rec, float wdl, bool mirror, const NnueInputs *in, Sample *out);

// The network's raw output for a sample (in units of NNUE_SCALE centipawns).
float nn_forward(const Net *net, const Sample *s);

// Adds the gradient of the sample's loss, (sigmoid(out) - target)^2, to grad (n_params
// floats); returns the loss.
float nn_backward(const Net *net, const Sample *s, float *grad);

// AdamW state and step.
typedef struct {
    float *m, *v;
    float lr, beta1, beta2, eps, decay;
    float own_decay; // more decay for the buckets' own rows of a factorised network (0: none)
    bool fixed_output; // the output weights are not stepped (nn_snap_output, train -Q)
    long step;
} Adam;

bool adam_alloc(Adam *a, size_t n);
void adam_free(Adam *a);
// One step with the mean gradient grad (n floats); weights then clipped to +-NN_CLIP
// (feature and output weights; biases are left free). Weights decay by lr * decay * w,
// the buckets' own rows of a factorised network by lr * (decay + own_decay) * w: pulled
// toward their shared rows, they learn a bucket's difference only where the data keep it.
// With fixed_output the output weights stay as they are (the output biases still learn).
void adam_step(Adam *a, Net *net, const float *grad);

// Checkpoint: the float network and the optimiser state, to resume or fine-tune.
bool nn_save_checkpoint(const Net *net, const Adam *adam, int epoch, const char *path);
// Loads a checkpoint into a network of any size (allocated here) and, if adam is not NULL,
// the optimiser state; *epoch gets the epochs done. False on a bad or foreign file.
bool nn_load_checkpoint(Net *net, Adam *adam, int *epoch, const char *path);

// Writes the quantised network in the engine's format (nnue_format.h); a factorised
// network's rows are written added to their shared rows, within +-NN_CLIP. The output
// layer goes on the grid of nn_export_qb.
bool nn_export(const Net *net, const char *path);
// The output layer's quantisation the export takes: the largest power of two from NNUE_QB
// to NNUE_QB_MAX on which every output weight rounds within +-127 (the engine's SIMD
// output layer's bound). Rounding on the 1/64 grid cost a network of H 512 1.3 % of its
// held-out loss; its weights, below 0.7, fit the 1/128 grid (docs/NNUE.md).
int nn_export_qb(const Net *net);
// The float network of an exported one (loaded with nnue_load), allocated here: each
// integer divided by its scale, so that exporting it again gives the same file. How a
// network whose checkpoint is gone is fine-tuned (train --init NET.nnue).
bool nn_from_export(Net *net, const Nnue *q);
// Gives a network of one output bucket `buckets` of them, each a copy of its output layer
// (the same outputs: where fine-tuning into buckets starts). False for a network that
// already has several, unless it has that many, and for a factorised one.
bool nn_widen(Net *net, int buckets);
// Grows a network of the plain inputs into one of the inputs `in` (NULL: plain) and
// `hidden` neurons (at least its own), factorised if asked (king buckets only): the old
// rows go to every bucket (or to the shared rows, the buckets' own starting at 0), the new
// neurons get a new network's random input weights and no output weight. It then computes
// what it did wherever its inputs' mirroring leaves a sample as it was (both kings on
// files e-h), and the same for the file-reversed board elsewhere: where fine-tuning a
// wider or king-bucketed network from a smaller one starts. False for a network with king
// buckets or fewer neurons asked, factor without king buckets, or out of memory.
bool nn_grow(Net *net, const NnueInputs *in, int hidden, bool factor, uint64_t seed);
// Grows a network of the plain inputs and H neurons into one of the king-bucketed inputs
// `in` and 2H neurons that computes the mean of the old one on a position and on its
// reflection (files a <-> h): neuron j keeps its rows, neuron H + j takes the rows of the
// reflected squares, and each pair shares the old output weight. Such a network gives a
// position and its reflection the same score, as a mirrored input layer requires, so it
// grows into one without the loss of nn_grow (whose start differs from the old network
// wherever the old one tells a position from its reflection), and the mean is itself a
// better evaluation than either half (docs/NETWORKS.md, 2026-12-05). The halves of output
// weights on the export's grid lie on one twice as fine, which the export takes (up to
// NNUE_QB_MAX), so the grown export computes the mean exactly too. False as
// nn_grow's, for a network without king buckets asked, or with 2H above the maximum.
bool nn_grow_reflected(Net *net, const NnueInputs *in, bool factor);
// The exported network's evaluation of a sample in centipawns (side to move), computed
// from the sample's features with none of nnue.c's code (no accumulators, no SIMD, no
// incremental update): an independent oracle, kept apart on purpose, that the tests hold
// the engine's evaluation of the same file to.
int qnn_eval(const Nnue *q, const Sample *s);

#endif
