/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbbench_multi.h - kbbench's many-client workloads (multi:CLIENTS): that
 * many worker processes call the channel's server at once, round after
 * round (header-only, see binder_io.h; included by kbbench.c after the
 * channels it drives).
 */
#ifndef KBINDER_BENCH_KBBENCH_MULTI_H
#define KBINDER_BENCH_KBBENCH_MULTI_H

/* Messages on the done pipe: which round and channel, how it went, and
 * the median of the worker's per-call latencies in the batch. */
struct done_msg {
	uint16_t round;
	uint8_t chan;
	uint8_t status;
	uint32_t median_ns;
};

static void worker_main(const struct workload *w, int cmd_fd, int done_fd)
{
	struct bio b[MAX_CHANNELS];
	int opened[MAX_CHANNELS] = { 0 };
	uint32_t seq = 0;
	char why[200];
	double *lat = malloc(sizeof(double) * (size_t)w->batch);
	int i;

	if (!lat)
		_exit(1);
	for (i = 0; i < nch; i++)
		if (ch[i].ok && ch[i].kind == CH_BINDER)
			opened[i] = bio_open(&b[i], ch[i].dev, CLIENT_MAP, why, sizeof(why)) == 0;
	for (;;) {
		uint8_t cmd[3];
		struct done_msg m;
		int rc = 0;

		if (read(cmd_fd, cmd, sizeof(cmd)) != sizeof(cmd) || cmd[2] >= nch)
			_exit(0);
		m.round = (uint16_t)(cmd[0] | cmd[1] << 8);
		m.chan = cmd[2];
		m.median_ns = 0;
		if (!opened[m.chan]) {
			rc = -ENODEV;
		} else {
			uint64_t t0 = bio_now_ns(), t1;

			bio_deadline(batch_timeout);
			for (i = 0; i < w->batch && !rc; i++) {
				rc = chan_call(&ch[m.chan], &b[m.chan], w, ++seq);
				t1 = bio_now_ns();
				lat[i] = (double)(t1 - t0);
				t0 = t1;
			}
			bio_deadline(0);
			if (!rc)
				m.median_ns = (uint32_t)stats_pct(lat, (size_t)w->batch, 50);
		}
		m.status = rc ? (uint8_t)(-rc & 0xff) : 0;
		if (write(done_fd, &m, sizeof(m)) != sizeof(m))
			_exit(1);
	}
}

/*
 * multi_round: one batch on channel @ci from every worker at once. The
 * round's value is the system's time per call as Little's law gives it
 * from the workers' median latency: median / clients (the wall clock of
 * the round, kept in @wall, suffers every host stall of any of them).
 */
static double multi_round(const struct workload *w, const int *cmd_fd, int done_fd,
			  int round, int ci, double *wall)
{
	uint8_t cmd[3] = { (uint8_t)round, (uint8_t)(round >> 8), (uint8_t)ci };
	uint64_t start = bio_now_ns(), deadline;
	double med[MAX_CLIENTS];
	int i, got = 0, err = 0;

	for (i = 0; i < w->clients; i++)
		if (write(cmd_fd[i], cmd, sizeof(cmd)) != sizeof(cmd))
			err = EPIPE;
	deadline = start + (uint64_t)(batch_timeout + 5) * 1000000000ull;
	while (got < w->clients && !err) {
		struct pollfd p = { .fd = done_fd, .events = POLLIN };
		uint64_t now = bio_now_ns();
		struct done_msg m;

		if (now >= deadline || poll(&p, 1, (int)((deadline - now) / 1000000) + 1) == 0) {
			err = ETIMEDOUT;
			break;
		}
		if (read(done_fd, &m, sizeof(m)) != sizeof(m)) {
			err = EIO;
			break;
		}
		if (m.round != (uint16_t)round || m.chan != ci)
			continue;	/* late answer of an earlier failure */
		if (m.status)
			err = m.status;
		med[got++] = m.median_ns;
	}
	if (err) {
		chan_fail(&ch[ci], "clients", -err);
		return -1;
	}
	*wall = (double)(bio_now_ns() - start) / (double)(w->clients * w->batch);
	return stats_pct(med, (size_t)got, 50) / w->clients;
}

static void run_multi(struct workload *w)
{
	int cmd_fd[MAX_CLIENTS], done[2], i, r, k;
	pid_t pid[MAX_CLIENTS];
	uint64_t start = bio_now_ns();

	if (pipe2(done, O_CLOEXEC) < 0)
		die("pipe");
	for (i = 0; i < w->clients; i++) {
		int cp[2];

		if (pipe2(cp, O_CLOEXEC) < 0)
			die("pipe");
		pid[i] = start_child();
		if (pid[i] == 0) {
			close(cp[1]);
			close(done[0]);
			worker_main(w, cp[0], done[1]);
		}
		close(cp[0]);
		cmd_fd[i] = cp[1];
	}
	close(done[1]);
	for (r = 0; r < WARMUP_ROUNDS + w->rounds; r++) {
		for (k = 0; k < nch; k++) {
			int ci = (r + k) % nch, ri = r - WARMUP_ROUNDS;
			double v, wall = 0;

			if (!ch[ci].ok)
				continue;
			v = multi_round(w, cmd_fd, done[0], r, ci, &wall);
			if (v >= 0 && ri >= 0) {
				ch[ci].round_val[ri] = v;
				ch[ci].round_ok[ri] = 1;
				ch[ci].lat[ch[ci].nlat++] = wall;
			}
		}
		if (out_of_time(w, r, start))
			break;
	}
	for (i = 0; i < w->clients; i++)
		close(cmd_fd[i]);
	for (i = 0; i < w->clients; i++) {
		for (r = 0; r < 300 && waitpid(pid[i], NULL, WNOHANG) == 0; r++)
			usleep(10000);
		if (r == 300) {
			kill(pid[i], SIGKILL);
			waitpid(pid[i], NULL, WNOHANG);
		}
	}
	close(done[0]);
}

#endif /* KBINDER_BENCH_KBBENCH_MULTI_H */
