/*
 * run/runner.c -- isolde_run: drive a backend with concurrent clients
 * (client.c) and record the history.
 *
 * The clients run as threads or forked processes over one shared mapping
 * (run_int.h); beside them the monitor reports progress and passes on a
 * stop request, and the nemesis thread injects faults (nemesis.c). When
 * every client is done, the runner reads every key with a connection of
 * its own. A run in which no transaction got an answer (ok or fail), only
 * infos, fails with the first info's error: the database or the client
 * never worked.
 *
 * Each client runs under the run's allocation guard (iso_guard_enter): a
 * client that runs out of memory ends the run, which unwinds only after
 * every client is joined and the shared mapping is gone. No allocation is
 * made while the shared lock is held.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "history/history.h"
#include "record/record.h"
#include "run/nemesis.h"
#include "run/proxy.h"
#include "run/run_int.h"

static void client_done(struct run_shared *sh)
{
    run_lock(sh);
    sh->clients_done++;
    pthread_mutex_unlock(&sh->lock);
}

struct client_job {
    struct run_ctx *x;
    int64_t process;
    int final;
};

static void client_job(void *arg)
{
    struct client_job *j = arg;
    run_client(j->x, j->process, j->final);
}

/* A client loop under the run's guard: running out of memory ends this
 * client and fails the run (unwound once every client is done). */
static void guarded_client(struct run_ctx *x, int64_t process, int final)
{
    struct client_job j = {x, process, final};
    if (iso_guard_enter(x->guard, client_job, &j) == 0) return;
    run_lock(x->sh);
    x->sh->nomem = 1;
    run_fail_locked(x->sh, "%s", "a client ran out of memory");
    pthread_mutex_unlock(&x->sh->lock);
}

static void *client_thread(void *arg)
{
    struct run_ctx *x = arg;
    guarded_client(x, x->client, 0);
    client_done(x->sh);
    return NULL;
}

/* ---- starting and waiting for clients ---- */

/* Report progress and pass on a stop request until every client is done. */
static void monitor(struct run_ctx *x, pid_t *pids, int n)
{
    struct run_shared *sh = x->sh;
    int reaped = 0;
    for (;;) {
        run_lock(sh);
        if (run_stop_asked(x->o)) sh->stop = 1;
        int done = sh->clients_done;
        long made = sh->st.ok + sh->st.fail + sh->st.info;
        pthread_mutex_unlock(&sh->lock);
        for (int i = 0; pids && i < n; i++)
            if (pids[i] > 0 && waitpid(pids[i], NULL, WNOHANG) == pids[i]) {
                pids[i] = 0;
                reaped++;
            }
        if ((pids ? reaped : done) >= n) return;
        if (x->o->progress)
            x->o->progress(x->o->progress_arg, made, sh->g.p.txns, iso_now() - sh->t0);
        iso_sleep_ms(pids ? 20 : 50);
    }
}

static int run_threads(struct run_ctx *x, int n)
{
    pthread_t *tids = iso_xcalloc((size_t)n, sizeof *tids);
    struct run_ctx *xs = iso_xcalloc((size_t)n, sizeof *xs);
    int started = 0;
    for (; started < n; started++) {
        xs[started] = *x;
        xs[started].client = started;
        if (pthread_create(&tids[started], NULL, client_thread, &xs[started]) != 0) break;
    }
    if (started < n) {
        run_lock(x->sh);
        run_fail_locked(x->sh, "%s", "cannot start a client thread");
        x->sh->clients_done += n - started;
        pthread_mutex_unlock(&x->sh->lock);
    }
    monitor(x, NULL, n);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    iso_free(tids);
    iso_free(xs);
    return 0;
}

static int run_processes(struct run_ctx *x, int n)
{
    pid_t *pids = iso_xcalloc((size_t)n, sizeof *pids), parent = getpid();
    int started = 0;
    for (; started < n; started++) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
            run_child_of(parent);
            x->client = started;
            guarded_client(x, started, 0);
            _exit(0);
        }
        pids[started] = pid;
    }
    if (started < n) {
        run_lock(x->sh);
        run_fail_locked(x->sh, "%s", "cannot fork a client");
        pthread_mutex_unlock(&x->sh->lock);
    }
    monitor(x, pids, started);
    iso_free(pids);
    return 0;
}

/* ---- the run ---- */

/* A nemesis op, in index order like every other (run_nemesis_record); its
 * buffer is sized before the lock is taken. */
static void record_nemesis(void *arg, const char *f, const char *value, int completion)
{
    struct run_shared *sh = arg;
    iso_buf b = {0};
    (void)completion;
    ISO_GROW(b.p, b.cap, strlen(f) + strlen(value) + 256);
    run_lock(sh);
    rec_op op = {sh->next_index++, ISO_OP_INFO, "nemesis", 0, f, value, run_now_locked(sh), NULL};
    rec_op_line(&b, &op);
    run_emit(sh, b.p, b.p + b.n, 1);
    pthread_mutex_unlock(&sh->lock);
    iso_buf_free(&b);
}

/* The workload's setup transaction, if it has one, run and then recorded
 * (process "setup": a bank's opening balances, which its checker reads). */
static int workload_setup(struct run_ctx *x, isolde_error *err)
{
    struct run_shared *sh = x->sh;
    txn t = {0};
    int rc = 0;
    if (sh->gen->setup && sh->gen->setup(&sh->g, &t)) rc = run_workload_setup(x->drv, x->env, &t, err);
    if (t.n && !rc) {
        iso_buf b = {0}, v = {0};
        const char *f = sh->gen->shape(&t, 1, &v);
        ISO_GROW(b.p, b.cap, REC_SETUP_MAX(f, iso_buf_cstr(&v)));
        run_lock(sh);
        rec_setup(&b, sh->next_index, f, iso_buf_cstr(&v), run_now_locked(sh));
        sh->next_index += 2;
        run_emit(sh, b.p, b.p + b.n, 1);
        pthread_mutex_unlock(&sh->lock);
        iso_buf_free(&b);
        iso_buf_free(&v);
    }
    txn_release(&t);
    return rc;
}

/* The clients beside the nemesis, which is stopped (everything healed)
 * when they are done. */
static int run_faulted(struct run_ctx *x, int *nomem, isolde_error *err)
{
    run_nemesis *nem;
    if (run_nemesis_start(&nem, x->o, x->proxy, record_nemesis, x->sh, err) < 0) return -1;
    if (x->o->processes) run_processes(x, x->o->clients);
    else run_threads(x, x->o->clients);
    run_nemesis_stop(nem, nomem, &x->sh->st);
    return 0;
}

/* After the clients (no lock needed: they are done): the final reads on
 * a connection of their own, the history closed, and what fails the run. */
static void finish(struct run_ctx *x, int nem_nomem)
{
    struct run_shared *sh = x->sh;
    if (nem_nomem) run_fail_locked(sh, "%s", "the nemesis ran out of memory");
    long before_final = sh->st.ok + sh->st.fail + sh->st.info;
    if (!sh->stop && !run_stop_asked(x->o)) guarded_client(x, sh->next_process++, 1);
    sh->st.final_reads = sh->st.ok + sh->st.fail + sh->st.info - before_final;
    if (hist_close(&sh->hist) < 0 && !sh->failed)
        run_fail_locked(sh, "cannot write the history: %s", strerror(sh->hist.err));
    if (!sh->failed && sh->st.ok + sh->st.fail == 0 && sh->st.info > 0)
        run_fail_locked(sh, "no transaction succeeded: every one ended unknown (info); the first error "
                        "was: %s", sh->first_info);
}

/* The clients, then the final reads, into the history file fd. */
static int run_clients(const run_env *env, const run_driver *drv, int fd, isolde_run_stats *st,
                       isolde_error *err)
{
    const isolde_run_opts *o = env->o;
    run_proxy rp;
    if (run_setup(drv, env, err) < 0 || run_proxy_start(o, &rp, err) < 0) return -1;
    struct run_shared *sh = run_shared_new(o, fd);
    if (!sh) {
        run_proxy_stop(&rp);
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot map shared memory: %s", strerror(errno));
    }
    run_env read_env = *env; /* --read-url's connections */
    read_env.read_only = 1;
    if (drv->read_level) read_env.isolation = drv->read_level(env->isolation);
    struct run_ctx x = {o, drv, env, o->n_read_urls ? &read_env : NULL, sh, iso_guard_current(), 0, rp.urls, rp.p};
    int nem_nomem = 0;
    if (workload_setup(&x, err) < 0 || run_faulted(&x, &nem_nomem, err) < 0) {
        hist_close(&sh->hist);
        run_shared_free(sh);
        run_proxy_stop(&rp);
        return -1;
    }
    finish(&x, nem_nomem);
    *st = sh->st;
    st->seconds = iso_now() - sh->t0;
    int nomem = sh->nomem || nem_nomem;
    int rc = sh->failed ? iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "%s", sh->errmsg) : 0;
    run_shared_free(sh);
    run_proxy_stop(&rp);
    if (nomem) iso_guard_raise(); /* the memory the clients held goes with the guard */
    return rc;
}

struct run_call {
    const isolde_run_opts *user;
    isolde_run_stats *st;
    int fd;
};

static int run(void *arg, isolde_error *err)
{
    struct run_call *c = arg;
    isolde_run_opts o;
    const run_driver *drv;
    run_env env;
    if (run_prepare(c->user, &o, &drv, &env, err)) return -1;
    if (run_check_clients(drv, &o, err)) {
        iso_free((void *)env.config);
        return -1;
    }
    c->fd = open(o.history_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = c->fd < 0 ? iso_fail(err, ISOLDE_ERR_IO, o.history_path, 0, 0, "cannot create: %s", strerror(errno))
           : drv->run ? drv->run(&env, c->fd, c->st, err) : run_clients(&env, drv, c->fd, c->st, err);
    iso_free((void *)env.config);
    return rc;
}

isolde_status isolde_run(const isolde_run_opts *o, isolde_run_stats *st, isolde_error *err)
{
    isolde_run_stats local;
    struct run_call c = {o, st ? st : &local, -1};
    memset(c.st, 0, sizeof *c.st);
    isolde_status s = iso_call(run, &c, err);
    if (c.fd >= 0 && close(c.fd) < 0 && s == ISOLDE_OK) {
        isolde_error e;
        iso_fail(&e, ISOLDE_ERR_IO, o->history_path, 0, 0, "cannot write: %s", strerror(errno));
        if (err) *err = e;
        s = e.code;
    }
    return s;
}
