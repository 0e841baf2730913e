package queue

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// results opens (or creates) the object store of run directories.
func (q *Queue) results(ctx context.Context) (jetstream.ObjectStore, error) {
	obs, err := q.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:      ResultsBucket,
		Description: "trawl run directories, one tar.gz per job",
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("queue: the object store %s: %w", ResultsBucket, err)
	}
	return obs, nil
}

func (q *Queue) objectName(key string) string { return q.o.Batch + "/" + key + ".tar.gz" }

// PutResult stores the run directory dir of job key in the object store, as one
// gzipped tar whose entries are relative to dir. An earlier object of the job is
// replaced.
func (q *Queue) PutResult(ctx context.Context, key, dir string) error {
	obs, err := q.results(ctx)
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeTarGz(pw, dir)) }()
	_, err = obs.Put(ctx, jetstream.ObjectMeta{Name: q.objectName(key), Description: dir}, pr)
	_ = pr.CloseWithError(err) // ends the writer if Put stopped early
	if err != nil {
		return fmt.Errorf("queue: store the results of %s: %w", key, err)
	}
	return nil
}

// writeTarGz writes the regular files and directories under dir.
func writeTarGz(w io.Writer, dir string) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == "." {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() && !info.IsDir() {
			return nil // no links or devices in a run directory
		}
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if info.IsDir() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer func() { _ = f.Close() }()
		_, err = io.Copy(tw, f)
		return err
	})
	if err != nil {
		return fmt.Errorf("archive %s: %w", dir, err)
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// Collect fetches the stored run directory of every job of the batch into
// out/<key>/ and returns the keys it wrote. A directory is replaced whole (written
// under a temporary name, then renamed), so an interrupted Collect leaves no half
// directory.
func (q *Queue) Collect(ctx context.Context, out string) ([]string, error) {
	obs, err := q.results(ctx)
	if err != nil {
		return nil, err
	}
	infos, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("queue: list %s: %w", ResultsBucket, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var keys []string
	prefix := q.o.Batch + "/"
	for _, info := range infos {
		if info.Deleted || !strings.HasPrefix(info.Name, prefix) || !strings.HasSuffix(info.Name, ".tar.gz") {
			continue
		}
		key := strings.TrimSuffix(strings.TrimPrefix(info.Name, prefix), ".tar.gz")
		if !validKey(key) {
			return keys, fmt.Errorf("queue: object %q: bad job key", info.Name)
		}
		res, err := obs.Get(ctx, info.Name)
		if err != nil {
			return keys, fmt.Errorf("queue: get %s: %w", info.Name, err)
		}
		tmp := filepath.Join(out, "."+key+".collect")
		_ = os.RemoveAll(tmp)
		err = readTarGz(res, tmp)
		_ = res.Close()
		if err != nil {
			_ = os.RemoveAll(tmp)
			return keys, fmt.Errorf("queue: unpack %s: %w", info.Name, err)
		}
		dst := filepath.Join(out, key)
		if err := os.RemoveAll(dst); err != nil {
			return keys, err
		}
		if err := os.Rename(tmp, dst); err != nil {
			return keys, err
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// readTarGz unpacks a gzipped tar into dir, refusing entries that leave it.
func readTarGz(r io.Reader, dir string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(hdr.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("entry %q leaves the directory", hdr.Name)
		}
		path := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("entry %q: unsupported type %c", hdr.Name, hdr.Typeflag)
		}
	}
	return os.MkdirAll(dir, 0o755)
}
