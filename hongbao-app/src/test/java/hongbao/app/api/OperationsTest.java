package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.app.Config;
import hongbao.app.Hongbao;
import hongbao.app.Version;
import hongbao.app.cli.HongbaoCommand;
import hongbao.app.embedded.FreePorts;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import picocli.CommandLine;

/**
 * What an operator relies on: the metric families (JVM, process, pool, Redis commands, HTTP per
 * route, the grab SLO buckets, the service's counters) each with HELP text, a request id on every
 * answer, the version on the command line, and a port in use named as such.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperationsTest {

  private TestService service;
  private Api api;

  @BeforeAll
  void start() {
    service = TestService.start(Backends.embedded());
    api = service.api();
  }

  @AfterAll
  void stop() {
    service.close();
  }

  /** Any token is a method to HTTP: requests of made-up methods share one series, not one each. */
  @Test
  void madeUpMethods_shareOneSeries_insteadOfAddingOneEach() {
    for (int i = 0; i < 20; i++) {
      var answer = api.call(api.request("M" + i + "X", "/api/v1/wallet", null, Map.of(), null));
      assertThat(answer.status()).as("M%dX", i).isBetween(400, 499);
    }

    String text = api.get("/metrics", null).raw();

    assertThat(text).doesNotContainPattern("method=\"M[0-9]+X\"");
    assertThat(text).containsPattern("hongbao_http_requests_seconds_count\\{[^}]*method=\"OTHER\"");
  }

  /**
   * Scrapes at once share the scrape under way (it reads Redis, and {@code /metrics} asks for no
   * token): every one is answered, in full.
   */
  @Test
  void scrapesAtOnce_areEachAnsweredInFull() {
    List<CompletableFuture<Api.Response>> scrapes =
        IntStream.range(0, 32)
            .mapToObj(i -> api.sendAsync(api.request("GET", "/metrics", null, Map.of(), null)))
            .toList();
    for (var scrape : scrapes) {
      Api.Response answer = scrape.join();
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.raw()).contains("# TYPE hongbao_grabs_total ");
    }
  }

  @Test
  void metrics_haveTheFamiliesAnOperatorNeeds_eachWithHelp() {
    api.topUp("ops-metrics", 1000);
    String packet = api.sendLucky(api.token("ops-metrics"), 1000, 1, 60);
    assertThat(api.grab(api.token("ops-grabber"), packet).status()).isEqualTo(200);

    String text = api.get("/metrics", null).raw();

    Set<String> families = matches(text, "(?m)^# TYPE (\\S+) ");
    assertThat(families)
        .contains(
            "jvm_memory_used_bytes",
            "jvm_gc_max_data_size_bytes", // jvm_gc_pause_seconds appears after the first pause
            "jvm_threads_live_threads",
            "process_cpu_usage",
            "process_uptime_seconds",
            "hikaricp_connections_active",
            "lettuce_command_completion_seconds",
            "lettuce_command_firstresponse_seconds",
            "hongbao_build_info",
            "hongbao_grab_latency_seconds",
            "hongbao_grabs_total",
            "hongbao_sends_total",
            "hongbao_topups_total",
            "hongbao_reconciliation_discrepancies",
            "hongbao_payout_dead_letters",
            "hongbao_refunds_total",
            "hongbao_http_requests_seconds",
            "hongbao_http_refused_total");
    Set<String> described = matches(text, "(?m)^# HELP (\\S+) \\S");
    assertThat(families).allSatisfy(family -> assertThat(described).contains(family));
    List<String> grabBuckets =
        text.lines().filter(l -> l.startsWith("hongbao_grab_latency_seconds_bucket")).toList();
    assertThat(grabBuckets).hasSize(11); // 0.5, 1, 2, 5, 10, 25, 50, 100, 250 ms, 1 s and +Inf
    assertThat(text)
        .containsPattern(
            "hongbao_http_requests_seconds_count\\{method=\"POST\",route=\"/api/v1/packets/:id/grab\",status=\"200\"\\} [1-9]");
    // The grab's script, by command type and Redis node.
    assertThat(text)
        .containsPattern(
            "lettuce_command_completion_seconds_count\\{command=\"EVALSHA\",[^}]*\\} [1-9]");
  }

  /**
   * A client that retries (a timeout, a dropped connection) repeats the Idempotency-Key: the
   * counters say how many packets and top-ups there are, not how many requests asked for them.
   * Replays come one after another and several at once, which is when two of them both render an
   * answer before one loses the key.
   */
  @Test
  void replays_ofOneSendAndOneTopUp_areCountedOnce() {
    String user = "ops-replay-" + UUID.randomUUID().toString().substring(0, 6);
    String token = api.token(user);
    double sendsBefore = counter("hongbao_sends_total");
    double topUpsBefore = counter("hongbao_topups_total");

    var topUp =
        api.request(
            "POST",
            "/api/v1/admin/topups",
            api.adminToken(),
            Map.of("Idempotency-Key", UUID.randomUUID().toString()),
            JsonObject.of("userId", user, "amount", 10_000).encode());
    var send =
        api.request(
            "POST",
            "/api/v1/packets",
            token,
            Map.of("Idempotency-Key", UUID.randomUUID().toString()),
            JsonObject.of("amount", 100, "count", 1, "type", "FIXED").encode());
    assertThat(api.call(topUp).status()).isEqualTo(200);
    assertThat(replays(topUp, 8)).containsOnly(200);
    assertThat(replays(send, 8)).containsOnly(201);
    assertThat(api.call(send).status()).isEqualTo(201);
    assertThat(api.call(topUp).status()).isEqualTo(200);

    assertThat(api.get("/api/v1/wallet", token).json().getLong("balance"))
        .as("one top-up, one send")
        .isEqualTo(9_900);
    assertThat(counter("hongbao_topups_total") - topUpsBefore).isEqualTo(1.0);
    assertThat(counter("hongbao_sends_total") - sendsBefore).isEqualTo(1.0);
  }

  /** The statuses of {@code copies} copies of {@code request} sent at once. */
  private List<Integer> replays(java.net.http.HttpRequest request, int copies) {
    List<CompletableFuture<Api.Response>> answers =
        IntStream.range(0, copies).mapToObj(i -> api.sendAsync(request)).toList();
    return answers.stream().map(CompletableFuture::join).map(Api.Response::status).toList();
  }

  private double counter(String name) {
    Matcher value =
        Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(api.get("/metrics", null).raw());
    assertThat(value.find()).as(name + " on /metrics").isTrue();
    return Double.parseDouble(value.group(1));
  }

  @Test
  void everyAnswer_carriesARequestId_andKeepsTheCallersOwn() {
    var mine =
        api.call(api.request("GET", "/health", null, Map.of("X-Request-Id", "trace-42"), null));
    var refused = api.call(api.request("GET", "/api/v1/wallet", null, Map.of(), null));
    var ours = api.call(api.request("GET", "/nowhere/at/all", null, Map.of(), null));

    assertThat(mine.status()).isEqualTo(200);
    assertThat(refused.status()).isEqualTo(401);
    assertThat(header(api, "/health", "trace-42")).isEqualTo("trace-42");
    assertThat(header(api, "/api/v1/wallet", null)).isNotBlank();
    assertThat(header(api, "/api/v1/wallet", "bad id with spaces")).doesNotContain(" ");
    assertThat(ours.status()).isEqualTo(404);
  }

  private static String header(Api api, String path, String offered) {
    try {
      var builder =
          java.net.http.HttpRequest.newBuilder(
              java.net.URI.create(api.request("GET", path, null, Map.of(), null).uri().toString()));
      if (offered != null) {
        builder.header("X-Request-Id", offered);
      }
      return java.net.http.HttpClient.newHttpClient()
          .send(builder.build(), java.net.http.HttpResponse.BodyHandlers.discarding())
          .headers()
          .firstValue("X-Request-Id")
          .orElse("");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void version_isPrinted() {
    var out = new StringWriter();
    int exit =
        new CommandLine(new HongbaoCommand()).setOut(new PrintWriter(out)).execute("--version");

    assertThat(exit).isZero();
    assertThat(out.toString()).startsWith("hongbao " + Version.current());
  }

  @Test
  void aWrongSetting_stopsServeWithOneLine() throws Exception {
    var java = ProcessHandle.current().info().command().orElseThrow();
    var builder =
        new ProcessBuilder(
                java, "-cp", System.getProperty("java.class.path"), "hongbao.app.Main", "serve")
            .redirectErrorStream(true);
    builder.environment().put("HONGBAO_PORT", "abc");
    builder.environment().put("HONGBAO_DATA_DIR", "target/never-used-data");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes()).strip();

    assertThat(process.waitFor()).isEqualTo(2);
    assertThat(output).isEqualTo("hongbao: HONGBAO_PORT must be an integer, not 'abc'");
  }

  /**
   * Outside dev mode a missing gateway address stops the start, before any embedded server is
   * started or any schema migrated: the simulator that would stand in pays nobody, so every
   * withdrawal would be debited and "paid" with no money leaving. So does an address without its
   * secret.
   */
  @Test
  void outsideDevMode_withoutAGatewayUrl_theServiceRefusesToStart_beforeStartingAnything()
      throws Exception {
    var production =
        Map.of(
            "HONGBAO_PORT",
            "0",
            "HONGBAO_JWT_SECRET",
            "operations-test-secret-" + UUID.randomUUID(),
            "HONGBAO_ID_ALPHABET",
            hongbao.http.PacketIds.DEFAULT_ALPHABET);
    Config config = Config.from(production);
    assertThat(config.devMode()).isFalse();
    java.nio.file.Path root = java.nio.file.Files.createTempDirectory("hongbao-refused-");
    var dataDir = new hongbao.app.DataDir(root);

    assertThatThrownBy(() -> Hongbao.start(config, dataDir).close())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HONGBAO_GATEWAY_URL is required outside dev mode");
    var withoutSecret = new java.util.HashMap<>(production);
    withoutSecret.put("HONGBAO_GATEWAY_URL", "https://pay.example.com");
    assertThatThrownBy(() -> Hongbao.start(Config.from(withoutSecret), dataDir).close())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HONGBAO_GATEWAY_URL needs HONGBAO_GATEWAY_SECRET");

    try (var kept = java.nio.file.Files.list(root)) {
      assertThat(kept.toList())
          .as("no embedded Redis, PostgreSQL or Kafka was started in the data directory")
          .isEmpty();
    }
    java.nio.file.Files.delete(root);
  }

  @Test
  void aPortInUse_isNamed() throws Exception {
    Backends backends = Backends.embedded();
    int port = FreePorts.find();
    try (var taken = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      assertThat(taken.isBound()).isTrue();
      Config config =
          Config.from(
              Map.of(
                  "HONGBAO_PORT",
                  Integer.toString(port),
                  "HONGBAO_DEV_MODE",
                  "true",
                  "HONGBAO_ID_ALPHABET",
                  hongbao.http.PacketIds.DEFAULT_ALPHABET));
      assertThatThrownBy(
              () -> Hongbao.start(config, backends.redisUrl(), backends.jdbcUrl(), false).close())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("port " + port)
          .hasMessageContaining("in use");
    }
  }

  private static Set<String> matches(String text, String regex) {
    Matcher matcher = Pattern.compile(regex).matcher(text);
    return matcher.results().map(r -> r.group(1)).collect(Collectors.toSet());
  }
}
