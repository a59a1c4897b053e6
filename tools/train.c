// SPDX-License-Identifier: MIT
// Trains the evaluation network on datagen's records (docs/NNUE.md):
//
//   train -o OUT.nnue [options] DATA...   DATA: datagen folders or .bin files
//     -H N        hidden neurons per perspective (default 256)
//     -O N        output buckets, 1 to 8 (default 1; with --init, the start's count or,
//                 from a network of one bucket, its output layer copied into N)
//     -K N        king buckets, 1, 2, 4 or 8 (nn_king_layout): the inputs mirrored so the
//                 own king stands on files e-h, one set of 768 per region of its square
//                 (a version 3 network); a new network, or one grown from --init's (default:
//                 none, the plain 768)
//     -e N        epochs in all (default 10); -b N batch size (default 16384)
//     -l X        learning rate at the start (default 0.001), cosine-decayed to 1 % of it
//     -w X        weight of the game result in the target (default 0.1)
//     -t N        threads (default 2); -s N seed (default 1)
//     -F          with -K: factorised king buckets, a set of 768 inputs shared by every
//                 bucket trained beside them and added to each at export (Net.factor)
//     -R X        with -F: more weight decay (AdamW's, default 0) for each bucket's own
//                 rows, which then hold how it differs from the shared ones: a bucketed
//                 network trained on few positions keeps a difference only where the data
//                 hold it up, instead of memorising them (a carried network's rows are
//                 split into their mean, shared, and the rest first: nn_share_mean)
//     -Y          with -K and --init of a plain network of H neurons: grow it by
//                 reflection instead (nn_grow_reflected): 2H neurons, neuron H + j the
//                 reflection of neuron j, so that it starts as the mean of the network on
//                 a position and on its reflection, not below the network (-H, if given,
//                 must be 2H)
//     -Q          round the output weights to the export's grid (nn_export_qb) first and train
//                 the rest with them fixed (nn_snap_output): the export then loses
//                 nothing there, where rounding them cost a network of H 512 1.3 % of its
//                 held-out loss; for a last fine-tune, since they no longer learn
//     -m          also train on every position mirrored left to right (files a <-> h):
//                 an epoch then goes through each record twice, once each way (not
//                 with -K, whose inputs are mirrored already)
//     -c PATH     checkpoint written after every epoch (default OUT.ckpt)
//     --resume P  continue the run of checkpoint P (network, optimiser, epochs done)
//     --init P    start from P's network with a fresh optimiser (fine-tuning): a
//                 checkpoint, or a network this tool exported (its float form recovered
//                 from the integers, as when the checkpoint is gone); with -K (and -F)
//                 or a larger -H, a network of the plain inputs is grown into that shape
//                 first (nn_grow: it starts out computing what P computes); a
//                 king-bucketed P with its own -K goes on in its shape, and -F gives
//                 it zero shared rows again (an export has them folded in)
//
//     -d EXTRA    more data (a folder or a file, up to 16 of them) trained on in full,
//                 none held out: tools/distill's records, whose held-out loss would say
//                 how well the network copies another, not how well it predicts games
//
// Records in check, with a noisy best move or a mate score are skipped when loading.
// Blocks of 128 consecutive records (one or two games) go to the held-out set one time in
// 32 (nn_held_out), so held-out positions come from games never trained on; its loss is
// printed after each epoch next to the training loss. Blocks are counted from each file's
// start, so a file's split does not move when a file read before it grows (candidates
// trained on copies of a growing generation share their held-out records). OUT.nnue is
// exported after every epoch.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "nnue_train.h"
#include "records.h"
#include "psqt.h"
#include "timeman.h"
#include "zobrist.h"

enum { MAX_THREADS = 64, MAX_EXTRA = 16 };

static const double PI = 3.14159265358979323846;
static const size_t MIRRORED = (size_t)1 << (sizeof(size_t) * 8 - 1); // a flag in an index

typedef struct {
    PackedPos *recs;
    size_t n, cap;
} RecordSet;

static bool push(RecordSet *set, const PackedPos *p)
{
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 1 << 16;
        PackedPos *r = realloc(set->recs, cap * sizeof *r);
        if (!r)
            return false;
        set->recs = r;
        set->cap = cap;
    }
    set->recs[set->n++] = *p;
    return true;
}

typedef struct {
    RecordSet train, held;
    size_t read, skipped;
} Data;

// Where load_record puts the records.
typedef struct {
    Data *data;
    float wdl;
    bool all_train; // every record trained on (-d), else held out by nn_held_out
} Loading;

static bool load_record(const PackedPos *p, size_t i, void *ctx)
{
    Loading *l = ctx;
    Data *d = l->data;
    Sample s;
    d->read++;
    if (!nn_sample(p, l->wdl, NULL, &s)) {
        d->skipped++;
        return true;
    }
    if (!push(!l->all_train && nn_held_out(i) ? &d->held : &d->train, p)) {
        fprintf(stderr, "train: out of memory\n");
        return false;
    }
    return true;
}

// A datagen folder (its data-W.bin files) or one file.
static bool load(Data *d, const char *path, float wdl, bool all_train)
{
    Loading l = {d, wdl, all_train};
    return records_for_each(path, "train", load_record, &l);
}

/* ---------------------------------------------------------------- parallel gradient */

typedef struct {
    const Net *net;
    const PackedPos *recs;
    const size_t *order; // NULL: records in order; else indices, MIRRORED set: reflected
    size_t from, to;
    float wdl;
    float *grad;         // NULL: loss only
    double loss;
} Job;

static void *run_job(void *arg)
{
    Job *j = arg;
    if (j->grad)
        memset(j->grad, 0, j->net->n_params * sizeof(float));
    double loss = 0;
    Sample s;
    for (size_t i = j->from; i < j->to; i++) {
        size_t k = j->order ? j->order[i] : i;
        nn_decode(&j->recs[k & ~MIRRORED], j->wdl, (k & MIRRORED) != 0, &j->net->in, &s);
        if (j->grad) {
            loss += nn_backward(j->net, &s, j->grad);
        } else {
            float d = 1.0f / (1.0f + expf(-nn_forward(j->net, &s))) - s.target;
            loss += d * d;
        }
    }
    j->loss = loss;
    return NULL;
}

// Runs [from, to) over `threads` jobs; sums their gradients into jobs[0].grad.
static double run_parallel(Job *jobs, int threads, size_t from, size_t to)
{
    pthread_t th[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    size_t span = (to - from + (size_t)threads - 1) / (size_t)threads;
    for (int k = 0; k < threads; k++) {
        jobs[k].from = from + span * (size_t)k < to ? from + span * (size_t)k : to;
        jobs[k].to = jobs[k].from + span < to ? jobs[k].from + span : to;
    }
    for (int k = 1; k < threads; k++) // job 0 runs on this thread; a job without a thread too
        if (!(started[k] = pthread_create(&th[k], NULL, run_job, &jobs[k]) == 0))
            run_job(&jobs[k]);
    run_job(&jobs[0]);
    double loss = jobs[0].loss;
    for (int k = 1; k < threads; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        loss += jobs[k].loss;
        if (jobs[0].grad)
            for (size_t i = 0; i < jobs[0].net->n_params; i++)
                jobs[0].grad[i] += jobs[k].grad[i];
    }
    return loss;
}

/* ---------------------------------------------------------------- main */

static int usage(void)
{
    fprintf(stderr, "usage: train -o OUT.nnue [-H N] [-O N] [-K N [-F] [-Y]] [-R X] [-Q] [-e N] [-b N] [-l X] [-w X] [-t N] [-s N]\n"
                    "             [-c PATH] [-m] [-d EXTRA]... [--resume CKPT | --init CKPT] DATA...\n");
    return 2;
}

// The command line's settings.
typedef struct {
    const char *out, *ckpt, *resume, *init;
    int hidden, buckets, kbuckets, epochs, batch, threads;
    float lr, wdl, own_decay;
    uint64_t seed;
    bool mirror, factor, reflect, hidden_set, snap;
    const char *extra[MAX_EXTRA]; // -d: trained on, none held out
    int n_extra;
    int first_data; // argv index of the first data file
    char ckpt_default[1024];
} Settings;

// Reads the options before the data files; false on a bad or missing one.
static bool parse_args(int argc, char **argv, Settings *o)
{
    *o = (Settings){.hidden = 256, .epochs = 10, .batch = 16384, .threads = 2, .lr = 0.001f, .wdl = 0.1f, .seed = 1,
                    .first_data = argc};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') {
            o->first_data = i;
            break;
        }
        if (!strcmp(a, "-m") || !strcmp(a, "-F") || !strcmp(a, "-Y") || !strcmp(a, "-Q")) {
            if (a[1] == 'm')
                o->mirror = true;
            else if (a[1] == 'F')
                o->factor = true;
            else if (a[1] == 'Q')
                o->snap = true;
            else
                o->reflect = true;
            continue;
        }
        if (i + 1 >= argc)
            return false;
        const char *v = argv[++i];
        if (!strcmp(a, "-o")) o->out = v;
        else if (!strcmp(a, "-c")) o->ckpt = v;
        else if (!strcmp(a, "--resume")) o->resume = v;
        else if (!strcmp(a, "--init")) o->init = v;
        else if (!strcmp(a, "-H")) o->hidden = atoi(v), o->hidden_set = true;
        else if (!strcmp(a, "-O")) o->buckets = atoi(v);
        else if (!strcmp(a, "-K")) o->kbuckets = atoi(v);
        else if (!strcmp(a, "-e")) o->epochs = atoi(v);
        else if (!strcmp(a, "-b")) o->batch = atoi(v);
        else if (!strcmp(a, "-t")) o->threads = atoi(v);
        else if (!strcmp(a, "-l")) o->lr = (float)atof(v);
        else if (!strcmp(a, "-w")) o->wdl = (float)atof(v);
        else if (!strcmp(a, "-R")) o->own_decay = (float)atof(v);
        else if (!strcmp(a, "-s")) o->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "-d") && o->n_extra < MAX_EXTRA) o->extra[o->n_extra++] = v;
        else return false;
    }
    if (!o->out || o->first_data >= argc || o->hidden < 1 || o->hidden > 4096 || o->buckets < 0
        || o->buckets > NNUE_MAX_BUCKETS || o->epochs < 1 || o->batch < 1 || o->threads < 1 || o->threads > MAX_THREADS
        || !(o->lr > 0) || !(o->wdl >= 0 && o->wdl <= 1) || (o->resume && o->init) || (o->resume && o->buckets)
        || (o->kbuckets && (o->resume || (o->kbuckets != 1 && o->kbuckets != 2 && o->kbuckets != 4
                                                     && o->kbuckets != 8))))
        return false;
    if (!(o->own_decay >= 0))
        return false;
    if (o->factor && !o->kbuckets) {
        fprintf(stderr, "train: -F factorises king buckets: it needs -K\n");
        return false;
    }
    if (o->reflect && (!o->kbuckets || !o->init)) {
        fprintf(stderr, "train: -Y grows the network of --init into king buckets: it needs -K and --init\n");
        return false;
    }
    if (o->kbuckets && o->mirror) {
        // Its inputs mirror each side's board to put the king on files e-h, so a position
        // and its reflection are the same sample: -m would train each one twice.
        fprintf(stderr, "train: -m adds nothing with -K: a king-bucketed network mirrors its inputs itself\n");
        return false;
    }
    snprintf(o->ckpt_default, sizeof o->ckpt_default, "%s.ckpt", o->out);
    if (!o->ckpt)
        o->ckpt = o->ckpt_default;
    return true;
}

// The network to train: resumed from a checkpoint, fine-tuned from a checkpoint or an
// exported network (widened to more output buckets if asked), or new. *done gets the
// epochs already done. False, with the reason on stderr, when it cannot be had.
static bool start_network(const Settings *o, Net *net, Adam *adam, int *done)
{
    *done = 0;
    if (!o->resume && !o->init) {
        NnueInputs in = {0};
        if (o->kbuckets)
            nn_king_layout(o->kbuckets, &in);
        if (!nn_alloc(net, &in, o->hidden, o->buckets ? o->buckets : 1, o->seed) || (o->factor && !nn_add_factor(net))
            || !adam_alloc(adam, net->n_params)) {
            fprintf(stderr, "train: out of memory\n");
            return false;
        }
        return true;
    }
    const char *from = o->resume ? o->resume : o->init;
    Nnue q = {0};
    char err[256] = "";
    bool loaded = nn_load_checkpoint(net, o->resume ? adam : NULL, done, from);
    if (!loaded && o->init && nnue_load(&q, o->init, err, sizeof err)) {
        loaded = nn_from_export(net, &q);
        nnue_free(&q);
    }
    if (loaded && o->init && o->buckets && !nn_widen(net, o->buckets)) {
        fprintf(stderr, "train: %s has %d output buckets, not 1 or %d\n", o->init, net->buckets, o->buckets);
        return false;
    }
    NnueInputs same = {0};
    if (loaded && o->init && !o->reflect && net->in.kbuckets && o->kbuckets == net->in.kbuckets
        && (!o->hidden_set || o->hidden == net->hidden) && nn_king_layout(o->kbuckets, &same)
        && !memcmp(same.layout, net->in.layout, sizeof same.layout)) {
        // A king-bucketed network goes on in its own shape. An export has the shared rows
        // folded into every bucket's; -F gives it shared rows again, each feature's mean
        // over the buckets, so that it computes what it did, its buckets learn together
        // once more and their own rows hold only their differences (what -R decays).
        if (o->factor && !net->factor) {
            if (!nn_add_factor(net)) {
                fprintf(stderr, "train: out of memory\n");
                return false;
            }
            nn_share_mean(net);
        }
    } else if (loaded && o->init && o->reflect) {
        NnueInputs in = {0};
        int from_hidden = net->hidden;
        if ((o->hidden_set && o->hidden != 2 * from_hidden) || !nn_king_layout(o->kbuckets, &in)
            || !nn_grow_reflected(net, &in, o->factor)) {
            fprintf(stderr, "train: cannot grow %s (H %d, %d king buckets) by reflection to H %d with %d king buckets\n",
                    o->init, from_hidden, net->in.kbuckets, o->hidden_set ? o->hidden : 2 * from_hidden, o->kbuckets);
            return false;
        }
    } else if (loaded && o->init && (o->kbuckets || (o->hidden_set && o->hidden != net->hidden))) {
        NnueInputs in = {0};
        int from_hidden = net->hidden;
        if ((o->kbuckets && !nn_king_layout(o->kbuckets, &in))
            || !nn_grow(net, o->kbuckets ? &in : NULL, o->hidden_set ? o->hidden : net->hidden, o->factor, o->seed)) {
            fprintf(stderr, "train: cannot grow %s (H %d, %d king buckets) to H %d with %d king buckets\n", o->init,
                    from_hidden, net->in.kbuckets, o->hidden_set ? o->hidden : from_hidden, o->kbuckets);
            return false;
        }
    }
    if (!loaded) {
        fprintf(stderr, "train: cannot load %s %s%s%s\n", o->resume ? "checkpoint" : "checkpoint or network", from,
                err[0] ? ": " : "", err);
        return false;
    }
    if (o->init) {
        *done = 0;
        if (!adam_alloc(adam, net->n_params))
            return false;
    }
    fprintf(stderr, "%s %s: H %d, %d output buckets, %d king buckets%s, %d epochs done\n",
            o->resume ? "resuming" : "fine-tuning from", from, net->hidden, net->buckets, net->in.kbuckets,
            net->factor ? " (factorised)" : "", *done);
    return true;
}

// The mean loss over a record set, without gradients (the jobs' gradients are kept).
static double mean_loss(Job *jobs, int threads, const RecordSet *set)
{
    if (set->n == 0)
        return 0;
    float *saved[MAX_THREADS];
    for (int k = 0; k < threads; k++) {
        saved[k] = jobs[k].grad;
        jobs[k].grad = NULL;
        jobs[k].recs = set->recs;
        jobs[k].order = NULL;
    }
    double loss = run_parallel(jobs, threads, 0, set->n) / (double)set->n;
    for (int k = 0; k < threads; k++)
        jobs[k].grad = saved[k];
    return loss;
}

// One epoch over the shuffled training order (n entries), one AdamW step per batch with
// the learning rate on its cosine schedule; returns the summed training loss.
static double train_epoch(const Settings *o, Job *jobs, Net *net, Adam *adam, const RecordSet *train, size_t *order,
                          size_t n, int epoch)
{
    uint64_t rng = o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)epoch;
    for (size_t i = n - 1; i > 0; i--) { // Fisher-Yates, seeded per epoch
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        size_t j = rng % (i + 1), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    size_t batches = (n + (size_t)o->batch - 1) / (size_t)o->batch;
    double train_loss = 0;
    for (size_t b = 0; b < batches; b++) {
        // Cosine from lr down to lr / 100 over the whole run.
        double progress = ((double)epoch + (double)b / (double)batches) / o->epochs;
        adam->lr = (float)(o->lr * (0.01 + 0.99 * 0.5 * (1.0 + cos(PI * progress))));
        for (int k = 0; k < o->threads; k++) {
            jobs[k].recs = train->recs;
            jobs[k].order = order;
        }
        size_t from = b * (size_t)o->batch, to = from + (size_t)o->batch < n ? from + (size_t)o->batch : n;
        train_loss += run_parallel(jobs, o->threads, from, to);
        float scale = 1.0f / (float)(to - from);
        for (size_t i = 0; i < net->n_params; i++)
            jobs[0].grad[i] *= scale;
        adam_step(adam, net, jobs[0].grad);
    }
    return train_loss;
}

int main(int argc, char **argv)
{
    attacks_init();
    zobrist_init();
    psqt_init();
    Settings o;
    if (!parse_args(argc, argv, &o))
        return usage();
    static Data data;
    for (int i = o.first_data; i < argc; i++)
        if (!load(&data, argv[i], o.wdl, false))
            return 1;
    for (int i = 0; i < o.n_extra; i++)
        if (!load(&data, o.extra[i], o.wdl, true))
            return 1;
    fprintf(stderr, "%zu records: %zu skipped (in check, noisy best move, mate score), %zu to train on, %zu held out\n",
            data.read, data.skipped, data.train.n, data.held.n);
    if (data.train.n == 0)
        return 1;
    Net net;
    Adam adam;
    int done;
    if (!start_network(&o, &net, &adam, &done))
        return 1;
    if (o.own_decay > 0 && !net.factor) {
        fprintf(stderr, "train: -R decays the own rows of factorised king buckets: the network has none (-F)\n");
        return 1;
    }
    adam.own_decay = o.own_decay; // a resumed run takes it from the command, as the rate
    if (o.snap) {
        size_t changed = nn_snap_output(&net);
        adam.fixed_output = true;
        printf("output weights on the export's grid (%zu moved) and fixed\n", changed);
    }

    Job jobs[MAX_THREADS];
    for (int k = 0; k < o.threads; k++) {
        jobs[k] = (Job){.net = &net, .wdl = o.wdl};
        jobs[k].grad = malloc(net.n_params * sizeof(float));
        if (!jobs[k].grad)
            return 1;
    }
    size_t n = data.train.n * (o.mirror ? 2 : 1), *order = malloc(n * sizeof *order);
    if (!order)
        return 1;
    for (size_t i = 0; i < n; i++)
        order[i] = i < data.train.n ? i : (i - data.train.n) | MIRRORED;
    // The losses before this run's first step, for comparison.
    double start_train = mean_loss(jobs, o.threads, &data.train), start_held = mean_loss(jobs, o.threads, &data.held);
    printf("epoch %d (start): train loss %.6f, held-out loss %.6f\n", done, start_train, start_held);
    for (int epoch = done; epoch < o.epochs; epoch++) {
        int64_t t0 = tm_now();
        double train_loss = train_epoch(&o, jobs, &net, &adam, &data.train, order, n, epoch);
        double held_loss = mean_loss(jobs, o.threads, &data.held);
        if (!nn_save_checkpoint(&net, &adam, epoch + 1, o.ckpt) || !nn_export(&net, o.out)) {
            fprintf(stderr, "train: cannot write %s or %s\n", o.ckpt, o.out);
            return 1;
        }
        printf("epoch %d: train loss %.6f, held-out loss %.6f, lr %.6f, %.1f s\n", epoch + 1, train_loss / (double)n,
               held_loss, (double)adam.lr, (double)(tm_now() - t0) / 1000.0);
        fflush(stdout);
    }
    for (int k = 0; k < o.threads; k++)
        free(jobs[k].grad);
    free(order);
    free(data.train.recs);
    free(data.held.recs);
    adam_free(&adam);
    nn_free(&net);
    return 0;
}
