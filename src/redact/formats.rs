//! The provider table: one row per credential format, written from each provider's published
//! format (and gitleaks' default configuration, whose every credential rule has a row here or
//! is covered by another rule: `docs/redaction.md` lists which). `tokens` is the one engine
//! that reads it; `format` says how a row is written. Adding a provider is one row here and
//! one line in `tests/fixtures/secrets/formats.txt`.
//!
//! Rows are tried in order at a position: a longer or more specific prefix comes before a
//! shorter one that would also match (`sk-ant-` before `sk-`, `eyJrIjoi` before `eyJ`). The
//! table is text, read once: as Rust structs it weighed three times as much in each .wasm.

use std::sync::OnceLock;

use super::format::Format;

/// The rows, in order, one a line (comments are Rust's: the table ships in two .wasm
/// modules, and the reasons need not).
const TABLE: &str = concat!(
    // cloud providers
    "aws-access-key-id AKIA|ASIA|ABIA|ACCA U{16}\n",
    "\" A3T U{17}\n",
    "aws-session-token IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE b{100,}\n",
    "aws-bedrock-key ABSK b{109,269}\n",
    "\" bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t b{0,}\n",
    "google-api-key AIza B{35}\n",
    "google-oauth-token ya29. B{20,1024}\n",
    "google-oauth-secret GOCSPX- B{28}\n",
    "google-oauth-token 1//0 B{40,} e40\n",
    "azure-client-secret Q~ T{31,34} <T{4}\n",
    "alibaba-access-key-id LTAI A{20}\n",
    "alibaba-secret-key @alibaba A{30}\n",
    "aws-secret-key @aws|secretaccess b{40}\n",
    "cloudflare-origin-ca-key v1.0- h{24}-h{146}\n",
    "cloudflare-api-token @cloudflare|cf_api|cf-api B{40}\n",
    "cloudflare-global-api-key @cloudflare|cf_api|cf-api h{37}\n",
    "digitalocean-token dop_v1_|doo_v1_|dor_v1_ h{64}\n",
    "heroku-api-key HRKU-AA B{58}\n",
    "\" @heroku h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "fly-token fo1_ B{43}\n",
    "\" fm1a_|fm1r_|fm2_ b{100,}\n",
    "vercel-token vcp_|vci_|vca_|vcr_|vck_ A{24,80}\n",
    "\" @vercel A{24}\n",
    "netlify-token nfp_ A{36,40}\n",
    "\" @netlify P{40,46}\n",
    "supabase-token sbp_ h{40}\n",
    "supabase-key sb_secret_ B{20,80}\n",
    "planetscale-token pscale_tkn_|pscale_oauth_|pscale_pw_ O{32,64}\n",
    "scalingo-token tk-us- B{48}\n",
    "doppler-token dp.pt.|dp.st.|dp.ct.|dp.sa.|dp.scim.|dp.audit. A{40,44}\n",
    "pulumi-token pul- h{40}\n",
    "terraform-token .atlasv1. P{60,70} <A{14}\n",
    "vault-token hvs. B{90,120}\n",
    "\" hvb. B{138,300}\n",
    // Recovery tokens: `hvr.` and 24 base62 (vault/generate_root_recovery.go, TokenLength).
    "\" hvr. A{24}\n",
    "\" s. A{24} e38\n",
    "openshift-token sha256~ B{43}\n",
    "databricks-token dapi h{32}\n",
    "dynatrace-token dt0c01. A{24}.A{64}\n",
    "clickhouse-key 4b1d A{38}\n",
    "octopus-deploy-key API- U{26} e35\n",
    "harness-token pat.|sat. B{22}.A{24}.A{20}\n",
    "prefect-token pnu_ A{36}\n",
    "infracost-token ico- A{32}\n",
    "artifactory-key AKCp A{69}\n",
    "\" cmVmd A{59}\n",
    "jfrog-key @jfrog|artifactory|bintray|xray A{73}\n",
    "\" @jfrog|artifactory|bintray|xray A{64}\n",
    "yandex-api-key AQVN B{35,38}\n",
    "yandex-key @yandex=YC B{38}\n",
    "yandex-token @yandex=t1. P{1,}.P{86,88}\n",
    // source hosting, packages, CI
    "github-token ghp_|gho_|ghu_|ghs_|ghr_ A{36,255} crc\n",
    "\" ghs_ D{1,20}_O{20,}\n",
    "\" github_pat_ W{20,}\n",
    "gitlab-token glpat-|gldt-|glrt-|glrtr-|glcbt-|glimt-|glsoat-|glffct-|glft-|glagent-|gloas-|glwt-|GR1348941 O{20,}\n",
    "\" glptt- h{40}\n",
    "gitlab-session _gitlab_session= l{32} keep\n",
    "npm-token npm_ A{36} crc\n",
    "pypi-token pypi-AgEIcHlwaS5vcmc|pypi-AgENdGVzdC5weXBpLm9yZw B{50,}\n",
    "rubygems-token rubygems_ h{48}\n",
    "clojars-token CLOJARS_ l{60} ci\n",
    "readme-token rdme_ l{70}\n",
    "sonar-token squ_|sqp_|sqa_ h{40}\n",
    "\" @sonar P{40}\n",
    "sourcegraph-token sgp_ W{40,58}\n",
    "\" @sourcegraph H{40}\n",
    "codecov-token @codecov A{32}\n",
    "droneci-token @droneci|drone_ A{32}\n",
    "travisci-token @travis A{22}\n",
    "bitbucket-secret @bitbucket P{64}\n",
    "atlassian-token @atlassian|confluence|jira A{24}\n",
    "\" ATATT P{100,}\n",
    "postman-token PMAK- H{24}-H{34}\n",
    "linear-key lin_api_ A{40}\n",
    "linear-secret @linear h{32}\n",
    "snyk-token snyk_ O{30,} e35\n",
    "\" @snyk h{8}-h{4}-h{4}-h{4}-h{12}\n",
    // chat and messaging
    "slack-token xoxb-|xoxp-|xoxa-|xoxr-|xoxs-|xoxo-|xoxe-|xoxc- D{1,}-M{8,}\n",
    "\" xoxe.xoxb-|xoxe.xoxp- D{1}-A{20,}\n",
    "\" xapp- D{1}-M{10,}\n",
    "discord-webhook discord.com/api/webhooks/|discordapp.com/api/webhooks/ D{17,20}/B{60,72} keep\n",
    "discord-token @discord h{64}\n",
    "\" @discord B{23,28}.B{6,7}.B{27,38}\n",
    "discord-secret @discord P{32}\n",
    "telegram-bot-token :AA B{33} <D{5,16}\n",
    "\" @telegr D{5,16}:B{35}\n",
    "teams-webhook .webhook.office.com/webhookb2/ F{80,} keep\n",
    "twilio-api-key SK H{32} e30\n",
    "twilio-auth-token @twilio h{32}\n",
    "sendgrid-key SG. B{20,24}.B{39,50}\n",
    "sendinblue-key xkeysib-|xsmtpsib- h{64}-A{16}\n",
    "mailchimp-key -us D{1,2} <h{32}\n",
    "mailgun-key @mailgun=key- h{32}\n",
    "\" @mailgun h{32}-h{8}-h{8}\n",
    "mattermost-token @mattermost A{26}\n",
    "messagebird-key @messagebird|message_bird|message-bird A{25}\n",
    "gitter-token @gitter B{40}\n",
    "intercom-key @intercom P{60}\n",
    "sendbird-token @sendbird h{40}\n",
    // payments and commerce
    "stripe-key sk_test_|sk_live_|sk_prod_|rk_test_|rk_live_|rk_prod_ A{10,}\n",
    "stripe-webhook-secret whsec_ b{32,}\n",
    "square-token sq0atp- B{22,60}\n",
    "\" EAAA B{60}\n",
    "square-secret sq0csp- B{43}\n",
    "shopify-token shpat_|shpca_|shppa_|shpss_ H{32}\n",
    "shippo-token shippo_live_|shippo_test_ H{5,40}\n",
    "duffel-token duffel_test_|duffel_live_ P{43}\n",
    "easypost-token EZAK|EZTK A{54}\n",
    "flutterwave-key FLWSECK_TEST-|FLWSECK- H{12,32}\n",
    "adobe-client-secret p8e- A{32}\n",
    "plaid-token access-sandbox-|access-development-|access-production- h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "plaid-secret @plaid l{30}\n",
    "gocardless-token @gocardless=live_ P{40}\n",
    "lob-key @lob=live_|test_ h{35}\n",
    "coinbase-token @coinbase B{64}\n",
    "kraken-token @kraken b{80,90}\n",
    "kucoin-secret @kucoin h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "kucoin-key @kucoin h{24}\n",
    "bittrex-key @bittrex A{32}\n",
    "finicity-secret @finicity h{32}\n",
    "\" @finicity A{20}\n",
    "squarespace-token @squarespace h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "etsy-token @etsy A{24}\n",
    // AI and data
    "anthropic-key sk-ant- w{2,10}D{2}-B{20,}\n",
    "openrouter-key sk-or-v1- h{64}\n",
    "openai-key sk-proj-|sk-svcacct-|sk-admin-|sk-None- B{20,}\n",
    "\" sk- A{32,}\n",
    "huggingface-token hf_|api_org_ L{34} e35\n",
    "groq-key gsk_ A{52}\n",
    "xai-key xai- A{80}\n",
    "replicate-token r8_ A{37}\n",
    "perplexity-key pplx- A{48}\n",
    "langsmith-key lsv2_pt_|lsv2_sk_ h{32}_h{10}\n",
    "tavily-key tvly- A{32}\n",
    "pinecone-key pcsk_ B{50,}\n",
    "notion-token ntn_ A{46}\n",
    "cohere-key @cohere|co_api_key A{40}\n",
    "privateai-key @private_ai|privateai|private-ai A{32}\n",
    "rapidapi-key @rapidapi B{50}\n",
    // monitoring and operations
    "grafana-key eyJrIjoi b{70,400}\n",
    "grafana-token glc_ b{32,400}\n",
    "\" glsa_ A{32}_H{8}\n",
    "new-relic-key NRAK- U{27}\n",
    "\" NRII- M{32}\n",
    "sentry-token sntryu_ h{64}\n",
    "\" sntrys_eyJpYXQiO b{20,}_b{43}\n",
    "\" @sentry h{64}\n",
    "datadog-key @datadog|dd_api|dd_app A{40}\n",
    "\" @datadog|dd_api h{32}\n",
    "sumologic-token @sumo A{64}\n",
    "meraki-key @meraki h{40}\n",
    "launchdarkly-token @launchdarkly P{40}\n",
    // Unleash (docs.getunleash.io, "API tokens and client keys"): `<project>:<environment>.`
    // and 28 random bytes in hex; `*` for all projects, `default` the default project.
    "unleash-token *:|default: w{3,24}.h{56}\n",
    "fastly-token @fastly P{32}\n",
    "okta-token @okta=00 P{40}\n",
    "hubspot-key @hubspot H{8}-H{4}-H{4}-H{4}-H{12}\n",
    "zendesk-key @zendesk A{40}\n",
    "looker-secret @looker A{24}\n",
    "algolia-key @algolia A{32}\n",
    "airtable-key @airtable A{17}\n",
    "airtable-token pat A{14}.h{64}\n",
    "asana-secret @asana A{32}\n",
    "adafruit-key @adafruit B{32}\n",
    "beamer-token @beamer=b_ P{44}\n",
    "confluent-key @confluent A{64}\n",
    "\" @confluent A{16}\n",
    "contentful-token @contentful P{43}\n",
    "dropbox-token @dropbox P{64}\n",
    "\" @dropbox A{15}\n",
    "\" sl. P{135,140}\n",
    "facebook-secret @facebook h{32}\n",
    "facebook-token EAAM|EAAC A{100,}\n",
    "\" @facebook|fb_ D{15,16}|B{27,40}\n",
    "flickr-token @flickr A{32}\n",
    "finnhub-token @finnhub A{20}\n",
    "freshbooks-token @freshbooks A{64}\n",
    "frameio-token fio-u- P{64}\n",
    "linkedin-secret @linkedin|linked_in|linked-in A{16}\n",
    "mapbox-token sk.eyJ B{50,}.B{20,}\n",
    "maxmind-key _mmk - <W{36}\n",
    "nytimes-token @nytimes|newyorktimes P{32}\n",
    "twitch-token @twitch A{30}\n",
    "twitter-bearer-token AAAAAAAAAAAAAAAAAAAAA A{80,110}\n",
    "twitter-token @twitter D{15,25}-A{20,40}\n",
    "twitter-secret @twitter A{45,50}\n",
    "twitter-key @twitter A{25}\n",
    "typeform-token @typeform=tfp_ O{59}\n",
    "\" tfp_ O{59} e35\n",
    "settlemint-token sm_aat_|sm_pat_|sm_sat_ A{16}\n",
    "defined-networking-token dnkey- P{26}-P{52}\n",
    "intra42-secret s-s4t2ud-|s-s4t2af- h{64}\n",
    "sidekiq-secret BUNDLE_ENTERPRISE__CONTRIBSYS__COM=|BUNDLE_GEMS__CONTRIBSYS__COM= h{8}:h{8} keep\n",
    "jwt ZXlK b{60,} e40\n",
    "authress-key sc_|ext_|scauth_|authress_ l{5,30}.l{4,6}.O{40,200} e35\n",
    // more providers, from their documented token formats
    "discord-token MT|Mj|Mz|ND|NT|Nj|Nz|OD|OT B{21,26}.B{6,7}.B{27,38} e35\n",
    "firebase-key :APA91b B{130,140} <B{11}\n",
    "bitbucket-token ATBB A{24,40} e35\n",
    "figma-token figd_ B{38,45}\n",
    "hubspot-token pat-na1-|pat-eu1- h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "nuget-key oy2 l{43} e35\n",
    "dockerhub-token dckr_pat_|dckr_oat_ B{27,40}\n",
    "circleci-token CCIPAT_|CCIPRJ_ B{40,}\n",
    "tailscale-key tskey-api-|tskey-auth-|tskey-client-|tskey-scim-|tskey-webhook- M{20,}\n",
    "render-key rnd_ A{32}\n",
    "braintree-token access_token$production$|access_token$sandbox$ l{16}$h{32}\n",
    "wandb-key @wandb h{40}\n",
    "buildkite-token bkua_ h{40}\n",
    // Buildkite's prefixed tokens (buildkite.com/docs platform/security/tokens): user, agent
    // session, job (a JWT), registration, cluster, registry, portal tokens and portal secrets.
    "\" bkua_|bkaa_|bkaj_|bkar_|bkct_|bkpt_|bkpat_|bkps_ O{40,}\n",
    "crates-io-token @cargo|crates=cio A{32}\n",
    "dependency-track-key @dependencytrack|dtrack=odt_ A{32}\n",
    "clickup-token pk_ D{3,12}_U{32}\n",
    "notion-token secret_ A{43} e35\n",
    "honeycomb-key hcaik_|hcxik_|hcamk_|hcxmk_ l{40,70}\n",
    "azure-sas-token &sig=|?sig= Q{40,120} e35 keep\n",
    "postmark-token @postmark h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "linode-token @linode h{64}\n",
    "hetzner-token @hcloud|hetzner A{64}\n",
    "vultr-key @vultr U{36}\n",
    "trello-token @trello h{64}\n",
    "todoist-token @todoist h{40}\n",
    "segment-key @segment A{32}\n",
    "saucelabs-key @saucelabs|sauce h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "circleci-token @circleci h{40}\n",
    "gitea-token @gitea|forgejo h{40}\n",
    "azure-devops-token @devops|azdo l{52}\n",
    // providers with a documented prefix and no row before the fourth round
    "contentful-token CFPAT- B{43}\n",
    "posthog-key phx_ W{39,47} e38\n",
    "langfuse-secret-key sk-lf- h{8}-h{4}-h{4}-h{4}-h{12}\n",
    "tencent-secret-id AKID A{32} e38\n",
    "apify-token apify_api_ A{36}\n",
    "new-relic-key NRJS- h{19}\n",
    "woocommerce-key ck_|cs_ h{40}\n",
    // the fifth round: documented prefixes the promoted sets held
    "netbox-token nbt_ A{12,}.A{40,}\n",
    // the fifth round's second half: documented formats the blind set held. A NATS nkey seed
    // (nats-io/nkeys, strkey.go's EncodeSeed): base32 of two prefix bytes, the 32-byte Ed25519
    // seed and a CRC16, 58 characters; the prefix bytes always write `S`, the key's type (User,
    // Account, Operator, Server, Cluster, curve X) and `A`.
    "nats-nkey-seed SUA|SAA|SOA|SNA|SCA|SXA U{55} sum:strkey\n",
    // the sixth round: secret-key encodings that carry a checksum (`checksum`). Where the prefix
    // is a character or two, the checksum of the whole token must hold (`sum!:`): a string of
    // the shape passes it once in 2^32 (StrKey's CRC16: 2^16, on 56 characters of base32).
    // XRP Ledger family seeds (xrpl.org, "base58 encodings"): Ed25519 seeds 0x01E14B and 16
    // bytes, 31 characters from `sEd`; secp256k1 seeds 0x21 and 16 bytes, 29 from `sp`-`sa`,
    // after a key naming them: as triggers, `sh`, `sp`, `sa` begin too many words (the scan
    // took 4 % more instructions for them alone, docs/redaction.md).
    "xrp-seed sEd A{28} sum!:xrp58\n",
    "\" @seed|secret|xrp|ripple=sp|ss|sh|sn|sa A{27} sum!:xrp58\n",
    // Stellar secret seeds (SEP-0023 StrKey): version byte 18 << 3, the 32-byte seed, CRC16.
    "stellar-secret-seed SA|SB|SC|SD U{54} sum!:strkey\n",
    // Bitcoin's wallet import format (0x80, or testnet's 0xEF, 32 bytes, 0x01 when the key is
    // compressed): 51 characters from 5H-5K (testnet 91-93), 52 from Kw-L5 (cM-cW); BIP-38's
    // passphrase-encrypted keys, 58 from 6P.
    "bitcoin-private-key 5H|5J|5K A{49} sum!:b58\n",
    "\" Kw|Kx|Ky|Kz|L1|L2|L3|L4|L5 A{50} sum!:b58\n",
    "\" 91|92|93 A{49} sum!:b58\n",
    "\" cM|cN|cP|cQ|cR|cS|cT|cU|cV|cW A{50} sum!:b58\n",
    "\" 6P A{56} sum!:b58\n",
    // Any coin's WIF (Litecoin's `T…`, Dogecoin's `Q…`: a version byte of its own), under
    // `wif`: Base58Check of the version, 32 bytes and 0x01, 50 to 52 characters.
    "\" @wif A{50,52} sum!:b58\n",
    // BIP-32 extended private keys, with SLIP-0132's versions: 111 characters of Base58Check.
    "extended-private-key xprv|tprv|yprv|zprv|uprv|vprv|Yprv|Zprv|Uprv|Vprv A{107} sum:b58\n",
    // Aptos' AIP-80 private keys: the scheme, `-priv-`, and the key's 32 bytes in hex.
    "aptos-private-key ed25519-priv-0x|secp256k1-priv-0x H{64}\n",
    // Nostr's private key (NIP-19): bech32 of 32 bytes after `nsec`.
    "nostr-secret-key nsec1 l{58} sum:bech32\n",
    // Tezos's secret keys (src/lib_crypto/base58.ml): Ed25519, secp256k1 and P-256 seeds, 54
    // characters; Ed25519's 64-byte key, 98; the encrypted forms, 88.
    "tezos-secret-key edsk|spsk|p2sk A{50} sum:b58\n",
    "\" edsk A{94} sum:b58\n",
    "\" edesk|spesk|p2esk A{83} sum:b58\n",
    // PASERK's secret and symmetric keys (`public`, `lid`, `pid`, `sid` are public or ids) and
    // PASETO's tokens, which are bearer tokens as JWTs are.
    "paserk-key k1.local.|k2.local.|k3.local.|k4.local.|k1.secret.|k2.secret.|k3.secret.|k4.secret.|k1.local-pw.|k2.local-pw.|k3.local-pw.|k4.local-pw.|k1.secret-pw.|k2.secret-pw.|k3.secret-pw.|k4.secret-pw.|k1.seal.|k2.seal.|k3.seal.|k4.seal. B{43,}\n",
    "\" k1.local-wrap.|k2.local-wrap.|k3.local-wrap.|k4.local-wrap.|k1.secret-wrap.|k2.secret-wrap.|k3.secret-wrap.|k4.secret-wrap. w{1,16}.B{43,}\n",
    "paseto-token v1.local.|v2.local.|v3.local.|v4.local.|v1.public.|v2.public.|v3.public.|v4.public. B{40,}.B{0,}\n",
    // the eighth round: platform tokens and scanners' prefixed rules whose shape stands alone.
    // Docker Swarm (moby/swarmkit ca/config.go GenerateJoinToken: the CA digest in base 36
    // padded to 50, the secret padded to 25; FIPS clusters write `SWMTKN-2-1-`), and the
    // unlock key (manager/encryption: `SWMKEY-1-` and 32 bytes of unpadded base64).
    "docker-swarm-token SWMTKN-1-|SWMTKN-2-0-|SWMTKN-2-1- l{50}-l{25}\n",
    "docker-swarm-unlock-key SWMKEY-1- b{43}\n",
    // k3s and RKE2 secure tokens (docs.k3s.io cli/token): `K10`, the CA's SHA-256 in hex, `::`,
    // then `<user>:<password>` or a bootstrap token `<id>.<secret>`.
    "k3s-token K10 h{64}:A{0}:w{1,16}:B{1,128}\n",
    "\" K10 h{64}:A{0}:l{6}.l{16}\n",
    // crates.io (rust-lang/crates.io src/util/token.rs): `cio` and 32 alphanumerics.
    "crates-io-token cio A{32} e38\n",
    // Django's startproject key: `django-insecure-` and 50 of get_random_secret_key's alphabet.
    "django-secret-key django-insecure- J{50}\n",
    // Laravel's key:generate: `base64:` and 32 random bytes (AES-256-CBC).
    "laravel-app-key base64: b{43} e38\n",
    // Cloudflare Tunnel tokens (developers.cloudflare.com, "Tunnel permissions"): base64 of
    // `{"a":…,"t":…,"s":…}`, which always begins `eyJhIjoi`.
    "cloudflare-tunnel-token eyJhIjoi b{100,}\n",
    // Login with Amazon (developer.amazon.com, "Access tokens"): `Atza|` (access), `Atzr|`.
    "amazon-oauth-token Atza|Atzr |B{40,}\n",
    // Salesforce refresh tokens (trufflehog salesforcerefreshtoken): `5Aep861`, 80 or more.
    "salesforce-token 5Aep861 O{80,} ci\n",
    // ElevenLabs (trufflehog elevenlabs v2): `sk_` and 48 hex.
    "elevenlabs-key sk_ h{48}\n",
    // New Relic license keys end in `NRAL` (GitGuardian "New Relic APM License Key").
    "new-relic-key NRAL - <l{36,40}\n",
    // Paddle Billing's API keys (developer.paddle.com, "Authentication"): `pdl_live_apikey_` or
    // `pdl_sdbx_apikey_`, a 26-character ULID, `_`, the secret.
    "paddle-key pdl_live_apikey_|pdl_sdbx_apikey_ l{26}_W{20,40}\n",
    // NVIDIA API keys start `nvapi-` (docs.api.nvidia.com; NVIDIA NeMo's own rule: 60 or more).
    "nvidia-api-key nvapi- B{60,128}\n",
    // Neon API keys (neon.com changelog 2025-01-31): `napi_` and 64 alphanumerics.
    "neon-api-key napi_ A{64}\n",
    // Ory Hydra's opaque tokens (ory/hydra, token prefixes): access, refresh, authorize code.
    "ory-token ory_at_|ory_rt_|ory_ac_ O{40,}\n",
    // Feishu and Lark custom bots (open.feishu.cn "custom bot"): the path's UUID is the secret.
    "feishu-webhook open.feishu.cn/open-apis/bot/v2/hook/|open.larksuite.com/open-apis/bot/v2/hook/ h{8}-h{4}-h{4}-h{4}-h{12} keep\n",
    // Microsoft's identifiable keys (microsoft/security-utilities, GeneratedRegexPatterns,
    // HighConfidenceSecurityModels.json): a signature at a fixed offset of a random key, so
    // the signature is the trigger and the characters before it the lead. 64-byte keys (Storage,
    // Cosmos DB, Batch, ML classic, API Management): 76, the signature, 6 and `==`.
    "azure-identifiable-key +ASt|ACDb|+ABa|+AMC|APIM b{6} <b{76}\n",
    // 32-byte keys (Relay, Event Hub, Service Bus, IoT, Redis, Event Grid): 33, it, 6 and `=`.
    "\" +ARm|+AEh|+ASb|AIoT|AzCa|AZEG b{6} <b{33}\n",
    // Functions (base64url), Search (alphanumerics), Container Registry (base64).
    "\" AzFu P{8} <B{44}\n",
    "\" AzSe A{6} <A{42}\n",
    "\" +ACR b{6} <b{42}\n",
    // Common annotated security keys (new Azure DevOps PATs): 52, `JQQJ9`, 27 or 29.
    "\" JQQJ9 A{27,29} <A{52}\n",
    // keys that are files
    "age-secret-key AGE-SECRET-KEY-1 E{58} sum:bech32\n",
    "1password-secret-key A3- U{6}-U{5,11}-U{5,6}-U{5}-U{5}-U{0,5}\n",
    "1password-token ops_eyJ b{250,}\n",
    // minisign's and signify's secret key files, the base64 line after `untrusted comment:`:
    // minisign.h's SeckeyStruct (`Ed`, kdf, `B2`, salt, limits, key id, key, checksum: 158
    // bytes), signify's (`Ed`, `BK`, rounds, salt, checksum, key id, key: 104). Unencrypted
    // only (minisign's kdf `\0\0`, `-W`; signify's 0 rounds, `-n`): an encrypted one
    // (`RWRTY0Iy`, `RWRCSwAAACo`) is no key without its password, and stays.
    "minisign-secret-key RWQAAEIy b{203}\n",
    "signify-secret-key RWRCSwAAAA b{129}\n",
    // Tor's control-spec: ADD_ONION's ED25519-V3 key blob, base64 of the 64-byte expanded
    // key; rend-spec's client authorization: a client's `.auth_private` line is the onion
    // address, then `descriptor:x25519:` and the base32 private key (the service's `.auth`
    // line, without the address, holds the public key and stays).
    "tor-onion-key ED25519-V3: b{86}\n",
    "tor-client-key :descriptor:x25519: A{52} <l{56} keep\n",
    // JWTs last: `eyJ` begins the Grafana key above too.
    "jwt eyJ jwt\n",
);

/// The table, read on first use (a row that does not read is left out; a unit test proves
/// none is).
pub(crate) fn formats() -> &'static [Format] {
    static FORMATS: OnceLock<Vec<Format>> = OnceLock::new();
    FORMATS.get_or_init(|| {
        let mut rows: Vec<Format> = Vec::new();
        for row in TABLE.split('\n').filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let previous = rows.last().map_or("", |f| f.kind);
            if let Some(format) = Format::parse(row, previous) {
                rows.push(format);
            }
        }
        rows
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_reads() {
        let rows = TABLE.lines().filter(|l| !l.starts_with('#') && !l.is_empty());
        assert_eq!(rows.count(), formats().len());
        assert!(formats().len() > 150);
    }

    /// 200 KB of each of the eighth round's prefixes (and of a k3s token's head, a suffix
    /// row's lead) in one call: each is read in bounded steps.
    #[test]
    fn a_long_run_of_the_eighth_rounds_prefixes_is_read_once() {
        let k3s = format!("K10{}::", "a".repeat(64));
        for unit in [
            "SWMTKN-1-", "SWMKEY-1-", "K10", &k3s, "cio", "django-insecure-", "base64:",
            "eyJhIjoi", "Atza|", "5Aep861", "sk_", "0123NRAL", "hvr.", "dckr_oat_", "+ASt",
            "APIM", "AzFu", "JQQJ9", "a+ASt", "aAzSe",
        ] {
            let text = unit.repeat(200_000 / unit.len());
            let _ = crate::redact::redact(&text);
        }
    }
}
