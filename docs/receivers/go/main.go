// A webhook receiver that verifies LM Pix deliveries (signature scheme `stripe`), with Go's standard library alone:
// net/http, crypto/hmac and crypto/sha256, no framework, no module to fetch.
//
//	WEBHOOK_SECRET=whsec_... PORT=4000 go run main.go
//
// Every POST is checked, then answered at once; the work an event triggers belongs after the answer (a queue, a job).
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// toleranceSeconds refuses a signature older (or newer) than 5 minutes: a replayed request is stale.
const toleranceSeconds = 300

const maxBodyBytes = 1 << 20

// seen holds the event ids already handled. Retries of an event carry the same id: handle it once, answer 2xx every
// time. A real receiver keeps these in its database (a unique key on the event id), not in memory.
var seen sync.Map

// verify checks `X-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` against the raw body.
// The HMAC-SHA256 key is the whole secret string, `whsec_` included, as UTF-8 bytes (it is not base64-decoded);
// the signed message is `<t>.<raw body>`. During a secret rotation the header carries two `v1`: either may match.
// It returns "" when the request is genuine, else the reason it is not.
func verify(header string, rawBody []byte, secret string) string {
	if header == "" {
		return "no X-Signature header"
	}
	timestamp := ""
	var signatures [][]byte
	for _, item := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(item, "=")
		if key == "t" {
			timestamp = value
		} else if key == "v1" && len(value) == 64 {
			if signature, err := hex.DecodeString(value); err == nil {
				signatures = append(signatures, signature)
			}
		}
	}
	t, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || t < 0 || len(signatures) == 0 {
		return "malformed X-Signature header"
	}
	if math.Abs(float64(time.Now().Unix()-t)) > toleranceSeconds {
		return "timestamp outside the tolerance"
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(rawBody)
	expected := mac.Sum(nil)
	for _, signature := range signatures {
		if hmac.Equal(signature, expected) {
			return ""
		}
	}
	return "signature mismatch"
}

func answer(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func main() {
	secret := os.Getenv("WEBHOOK_SECRET")
	if secret == "" {
		log.Fatal("set WEBHOOK_SECRET to the endpoint's whsec_... secret")
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = "4000"
	}

	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			answer(w, http.StatusMethodNotAllowed, map[string]string{"error": "POST only"})
			return
		}
		// The raw bytes, exactly as received: parse JSON only after the signature is verified over them.
		rawBody, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
		if err != nil {
			answer(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "body too large"})
			return
		}
		if reason := verify(r.Header.Get("X-Signature"), rawBody, secret); reason != "" {
			fmt.Printf("rejected: %s\n", reason)
			answer(w, http.StatusUnauthorized, map[string]string{"error": reason})
			return
		}
		var event struct {
			ID   string `json:"id"`
			Type string `json:"type"`
			Data struct {
				Object json.RawMessage `json:"object"`
			} `json:"data"`
		}
		if err := json.Unmarshal(rawBody, &event); err != nil {
			answer(w, http.StatusBadRequest, map[string]string{"error": "not JSON"})
			return
		}
		if _, duplicate := seen.LoadOrStore(event.ID, true); duplicate {
			fmt.Printf("duplicate %s %s\n", event.Type, event.ID)
			answer(w, http.StatusOK, map[string]bool{"received": true})
			return
		}
		fmt.Printf("verified %s %s\n", event.Type, event.ID)
		answer(w, http.StatusOK, map[string]bool{"received": true})
		// Now act on the event (event.Data.Object is the resource as it was), e.g. hand it to a queue.
		// Unknown event types are answered 2xx too: new types may appear at any time.
	})

	fmt.Printf("listening on http://localhost:%s\n", port)
	log.Fatal(http.ListenAndServe(":"+port, nil))
}
