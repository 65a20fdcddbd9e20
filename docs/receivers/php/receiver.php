<?php
// A webhook receiver that verifies LM Pix deliveries (signature scheme `stripe`), with PHP alone: no framework, no
// Composer package. Run it with PHP's built-in server (or behind any web server that hands it the POST):
//
//   WEBHOOK_SECRET=whsec_... php -S 0.0.0.0:${PORT:-4000} receiver.php
//
// Every POST is checked, then answered at once; the work an event triggers belongs after the answer (a queue, a job).

const TOLERANCE_SECONDS = 300; // refuse a signature older (or newer) than 5 minutes: a replayed request is stale

/**
 * Checks `X-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` against the raw body.
 * The HMAC-SHA256 key is the whole secret string, `whsec_` included, as UTF-8 bytes (it is not base64-decoded);
 * the signed message is `<t>.<raw body>`. During a secret rotation the header carries two `v1`: either may match.
 * Returns null when the request is genuine, else the reason it is not.
 */
function verify(?string $header, string $rawBody, string $secret): ?string
{
    if ($header === null || $header === '') {
        return 'no X-Signature header';
    }
    $timestamp = null;
    $signatures = [];
    foreach (explode(',', $header) as $item) {
        [$key, $value] = array_pad(explode('=', $item, 2), 2, '');
        if ($key === 't') {
            $timestamp = $value;
        } elseif ($key === 'v1' && preg_match('/^[0-9a-f]{64}$/', $value) === 1) {
            $signatures[] = $value;
        }
    }
    if ($timestamp === null || !ctype_digit($timestamp) || $signatures === []) {
        return 'malformed X-Signature header';
    }
    if (abs(time() - (int) $timestamp) > TOLERANCE_SECONDS) {
        return 'timestamp outside the tolerance';
    }
    $expected = hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret);
    foreach ($signatures as $signature) {
        if (hash_equals($expected, $signature)) {
            return null;
        }
    }
    return 'signature mismatch';
}

function answer(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body);
}

function say(string $line): void
{
    file_put_contents('php://stdout', $line . "\n");
}

$secret = getenv('WEBHOOK_SECRET');
if ($secret === false || $secret === '') {
    answer(500, ['error' => "set WEBHOOK_SECRET to the endpoint's whsec_... secret"]);
    exit;
}
if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    answer(405, ['error' => 'POST only']);
    exit;
}

// The raw bytes, exactly as received: parse JSON only after the signature is verified over them.
$rawBody = file_get_contents('php://input');
$reason = verify($_SERVER['HTTP_X_SIGNATURE'] ?? null, $rawBody, $secret);
if ($reason !== null) {
    say("rejected: $reason");
    answer(401, ['error' => $reason]);
    exit;
}
$event = json_decode($rawBody, true);

// Retries of an event carry the same id: handle it once, answer 2xx every time. Each request is its own PHP run, so
// the ids live outside it; here a marker file created atomically ('x' fails when it exists). A real receiver uses its
// database (a unique key on the event id).
$marker = sys_get_temp_dir() . '/lm-pix-event-' . preg_replace('/[^A-Za-z0-9_]/', '', $event['id']);
if (@fopen($marker, 'x') === false) {
    say("duplicate {$event['type']} {$event['id']}");
    answer(200, ['received' => true]);
    exit;
}
say("verified {$event['type']} {$event['id']}");
answer(200, ['received' => true]);
// Now act on the event ($event['data']['object'] is the resource as it was), e.g. hand it to a queue.
// Unknown event types are answered 2xx too: new types may appear at any time.
