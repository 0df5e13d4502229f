package sonic

import (
	"os"
	"testing"
)

func BenchmarkLoadSchema(b *testing.B) {
	for b.Loop() {
		if _, err := loadSchema(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateCanonical(b *testing.B) {
	s, err := loadSchema()
	if err != nil {
		b.Fatal(err)
	}
	d, err := parseDB(mustRead(b, "testdata/config_db.json"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if msg := s.validate(d); msg != "" {
			b.Fatal(msg)
		}
	}
}

func mustRead(b *testing.B, p string) []byte {
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
