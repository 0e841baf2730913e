package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the JetStream assets trawl uses.
const (
	JobsStream    = "TRAWL_JOBS"
	jobsSubject   = "trawl.jobs."
	StatusBucket  = "trawl_status"
	LeaseBucket   = "trawl_leases"
	ResultsBucket = "trawl_results"
	BatchBucket   = "trawl_batches"
)

// Options configures Open. Start from DefaultOptions.
type Options struct {
	// URL is the NATS server (nats://host:4222, or several separated by commas for a
	// cluster). Empty: start an embedded server with its JetStream store in StoreDir.
	URL string
	// StoreDir is the embedded server's JetStream file store (required without URL).
	StoreDir string
	// Listen, for the embedded server, is the host:port it accepts workers of other
	// processes on ("127.0.0.1:0" picks a free port). Empty: the server is reachable
	// from this process only.
	Listen string
	// Batch names the batch (letters, digits, - and _): jobs, status and results of
	// batches with other names are kept apart.
	Batch string
	// AckWait is how long a job may go without a heartbeat before the server gives it
	// to another worker; it also bounds an origin lease that is not renewed.
	AckWait time.Duration
	// MaxAttempts is the most times a job is started (a worker died or lost its
	// browser during the others) before it is marked failed.
	MaxAttempts int
	// OriginLimit is the most jobs of one origin (scheme://host:port) that run at the
	// same time across all workers.
	OriginLimit int
	// Configure makes this client set the batch's AckWait, MaxAttempts and
	// OriginLimit on the server ('trawl batch' does). Other clients (workers) take
	// the batch's values from the server, and use their own only for a batch that
	// nobody configured yet.
	Configure bool
	// Logger receives progress and diagnostics. Nil discards them.
	Logger *slog.Logger
}

// DefaultOptions returns a 30 s AckWait, 5 attempts and one job per origin at a time.
func DefaultOptions() Options {
	return Options{Batch: "default", AckWait: 30 * time.Second, MaxAttempts: 5, OriginLimit: 1}
}

// Validate reports the first invalid field.
func (o Options) Validate() error {
	switch {
	case o.URL == "" && o.StoreDir == "":
		return errors.New("queue: StoreDir is required for the embedded server (no URL given)")
	case o.URL != "" && o.Listen != "":
		return errors.New("queue: Listen applies to the embedded server only, not with a server URL")
	case !validToken(o.Batch):
		return fmt.Errorf("queue: batch name %q: use letters, digits, - and _ only", o.Batch)
	case o.AckWait < time.Second:
		return fmt.Errorf("queue: AckWait must be ≥ 1s, got %v", o.AckWait)
	case o.MaxAttempts < 1:
		return fmt.Errorf("queue: MaxAttempts must be ≥ 1, got %d", o.MaxAttempts)
	case o.OriginLimit < 1:
		return fmt.Errorf("queue: OriginLimit must be ≥ 1, got %d", o.OriginLimit)
	}
	if o.URL != "" {
		for u := range strings.SplitSeq(o.URL, ",") {
			if !strings.HasPrefix(u, "nats://") && !strings.HasPrefix(u, "tls://") {
				return fmt.Errorf("queue: server URL %q: want nats://host:port", u)
			}
		}
	}
	return nil
}

// validToken reports whether s may be one token of a NATS subject and of a KV key.
func validToken(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// BatchName turns any text (a jobs file's name) into a valid batch name.
func BatchName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	n := strings.Trim(b.String(), "-")
	if len(n) > 64 {
		n = n[:64]
	}
	if n == "" {
		return "default"
	}
	return n
}

// Queue is a connection to the work queue of one batch. It is safe for concurrent use.
type Queue struct {
	o      Options
	log    *slog.Logger
	srv    *server.Server // the embedded server, or nil
	nc     *nats.Conn
	js     jetstream.JetStream
	status jetstream.KeyValue
	leases jetstream.KeyValue
}

// Open connects to the server (or starts the embedded one) and creates the stream,
// the batch's consumer and the buckets if they do not exist yet.
func Open(ctx context.Context, o Options) (*Queue, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	q := &Queue{o: o, log: o.Logger}
	if q.log == nil {
		q.log = slog.New(slog.DiscardHandler)
	}
	url := o.URL
	var copts []nats.Option
	if url == "" {
		srv, err := startEmbedded(o.StoreDir, o.Listen, q.log)
		if err != nil {
			return nil, err
		}
		q.srv = srv
		url = srv.ClientURL()
		if o.Listen == "" {
			copts = append(copts, nats.InProcessServer(srv))
		}
	}
	copts = append(copts, nats.Name("trawl"), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				q.log.Warn("queue: disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { q.log.Info("queue: reconnected", "url", nc.ConnectedUrl()) }))
	nc, err := nats.Connect(url, copts...)
	if err != nil {
		q.Close()
		return nil, fmt.Errorf("queue: connect to %s: %w", url, err)
	}
	q.nc = nc
	if err := q.setup(ctx); err != nil {
		q.Close()
		return nil, err
	}
	return q, nil
}

// startEmbedded starts a NATS server with JetStream in this process.
func startEmbedded(storeDir, listen string, log *slog.Logger) (*server.Server, error) {
	so := &server.Options{
		ServerName: "trawl-embedded",
		JetStream:  true,
		StoreDir:   storeDir,
		NoSigs:     true,
		NoLog:      true,
		DontListen: listen == "",
		Host:       "127.0.0.1",
		Port:       -1,
	}
	if listen != "" {
		host, port, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("queue: listen address %q: want host:port", listen)
		}
		n, err := strconv.Atoi(port)
		if err != nil || n < 0 || n > 65535 {
			return nil, fmt.Errorf("queue: listen address %q: bad port", listen)
		}
		so.Host = host
		if n > 0 {
			so.Port = n
		}
	}
	srv, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("queue: embedded NATS server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(15 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("queue: the embedded NATS server (store %s, listen %q) did not start within 15s", storeDir, listen)
	}
	log.Info("queue: embedded NATS server started", "store", storeDir, "url", srv.ClientURL())
	return srv, nil
}

// setup creates what the batch needs; it is idempotent.
func (q *Queue) setup(ctx context.Context) error {
	js, err := jetstream.New(q.nc)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	q.js = js
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        JobsStream,
		Description: "trawl batch jobs, one message per job",
		Subjects:    []string{jobsSubject + ">"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  24 * time.Hour,
	}); err != nil {
		return fmt.Errorf("queue: create the stream %s on %s: %w", JobsStream, q.nc.ConnectedUrl(), err)
	}
	if q.srv != nil {
		// Nobody else can be connected to a server this process just started: jobs
		// that a killed earlier run left unacknowledged and its leases go back at
		// once instead of after AckWait.
		if err := js.DeleteConsumer(ctx, JobsStream, q.consumerName()); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return fmt.Errorf("queue: reset the consumer: %w", err)
		}
		_ = js.DeleteKeyValue(ctx, LeaseBucket) // may not exist yet
	}
	if err := q.batchConfig(ctx); err != nil {
		return err
	}
	cc := jetstream.ConsumerConfig{
		Durable:       q.consumerName(),
		Description:   "workers of batch " + q.o.Batch,
		FilterSubject: q.subject(),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       q.o.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: 10000,
	}
	_, err = js.Consumer(ctx, JobsStream, q.consumerName())
	if q.o.Configure || errors.Is(err, jetstream.ErrConsumerNotFound) {
		_, err = js.CreateOrUpdateConsumer(ctx, JobsStream, cc)
	}
	if err != nil {
		return fmt.Errorf("queue: the consumer of batch %s: %w", q.o.Batch, err)
	}
	if q.status, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: StatusBucket, Description: "state of every trawl job", History: 1, Storage: jetstream.FileStorage,
	}); err != nil {
		return fmt.Errorf("queue: create the bucket %s: %w", StatusBucket, err)
	}
	if q.leases, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: LeaseBucket, Description: "per-origin leases of trawl workers", History: 1, Storage: jetstream.FileStorage,
	}); err != nil {
		return fmt.Errorf("queue: create the bucket %s: %w", LeaseBucket, err)
	}
	return nil
}

// batchParams are the parameters every worker of a batch must share.
type batchParams struct {
	AckWait     time.Duration `json:"ack_wait_ns"`
	MaxAttempts int           `json:"max_attempts"`
	OriginLimit int           `json:"origin_limit"`
}

// batchConfig writes the batch's parameters (Configure) or reads them.
func (q *Queue) batchConfig(ctx context.Context) error {
	kv, err := q.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: BatchBucket, Description: "parameters of trawl batches", History: 1, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return fmt.Errorf("queue: create the bucket %s: %w", BatchBucket, err)
	}
	if q.o.Configure {
		b, _ := json.Marshal(batchParams{AckWait: q.o.AckWait, MaxAttempts: q.o.MaxAttempts, OriginLimit: q.o.OriginLimit})
		if _, err := kv.Put(ctx, q.o.Batch, b); err != nil {
			return fmt.Errorf("queue: write the parameters of batch %s: %w", q.o.Batch, err)
		}
		return nil
	}
	e, err := kv.Get(ctx, q.o.Batch)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("queue: read the parameters of batch %s: %w", q.o.Batch, err)
	}
	var p batchParams
	if err := json.Unmarshal(e.Value(), &p); err != nil || p.AckWait < time.Second || p.MaxAttempts < 1 || p.OriginLimit < 1 {
		return fmt.Errorf("queue: bad parameters of batch %s in %s: %q", q.o.Batch, BatchBucket, e.Value())
	}
	if p.AckWait != q.o.AckWait || p.OriginLimit != q.o.OriginLimit {
		q.log.Info("queue: the batch's parameters apply", "batch", q.o.Batch, "ack_wait", p.AckWait, "origin_limit", p.OriginLimit, "max_attempts", p.MaxAttempts)
	}
	q.o.AckWait, q.o.MaxAttempts, q.o.OriginLimit = p.AckWait, p.MaxAttempts, p.OriginLimit
	return nil
}

func (q *Queue) consumerName() string { return "trawl-" + q.o.Batch }
func (q *Queue) subject() string      { return jobsSubject + q.o.Batch }

// ClientURL returns the URL workers of other processes connect to: the server's
// URL, or the embedded server's listening address ("" when it does not listen).
func (q *Queue) ClientURL() string {
	if q.srv != nil {
		if q.o.Listen == "" {
			return ""
		}
		return q.srv.ClientURL()
	}
	return q.o.URL
}

// Options returns the options the queue was opened with.
func (q *Queue) Options() Options { return q.o }

// Close closes the connection and stops the embedded server, if any.
func (q *Queue) Close() {
	if q.nc != nil {
		_ = q.nc.Drain() // lets pending acknowledgements through
		deadline := time.Now().Add(5 * time.Second)
		for !q.nc.IsClosed() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		q.nc.Close()
	}
	if q.srv != nil {
		q.srv.Shutdown()
		q.srv.WaitForShutdown()
	}
}
