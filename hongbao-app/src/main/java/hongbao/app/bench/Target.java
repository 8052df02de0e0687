package hongbao.app.bench;

import hongbao.app.bench.CpuMeter.Party;
import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.embedded.EmbeddedRedisCluster;
import hongbao.app.embedded.FreePorts;
import hongbao.kafka.embedded.EmbeddedKafka;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The service under load, always in a process of its own: either a running instance ({@code --url})
 * or one this bench starts ({@code --embedded}: Redis and PostgreSQL embedded in child processes of
 * the bench, the service a separate JVM from the same jar, exactly as {@code hongbao serve} runs
 * against a configured Redis and PostgreSQL). Knows the pids whose CPU time the bench reports.
 */
final class Target implements AutoCloseable {

  /**
   * The launcher's flags (see the {@code hongbao} script): what a user's service runs with, on the
   * JDK this bench runs on.
   */
  static final List<String> SERVICE_JVM_FLAGS =
      Runtime.version().feature() >= 23
          ? List.of("-XX:+UseParallelGC", "-Xss512k", "--sun-misc-unsafe-memory-access=allow")
          : List.of("-XX:+UseParallelGC", "-Xss512k");

  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final String baseUrl;
  private final String redisUrl;
  private final String jwtSecret;
  private final String kafkaBootstrap;
  private final CpuMeter meter;
  private final List<AutoCloseable> owned;

  private Target(
      String baseUrl,
      String redisUrl,
      String jwtSecret,
      String kafkaBootstrap,
      CpuMeter meter,
      List<AutoCloseable> owned) {
    this.baseUrl = baseUrl;
    this.redisUrl = redisUrl;
    this.jwtSecret = jwtSecret;
    this.kafkaBootstrap = kafkaBootstrap;
    this.meter = meter;
    this.owned = owned;
  }

  String baseUrl() {
    return baseUrl;
  }

  /** Null when the bench does not know the service's Redis. */
  String redisUrl() {
    return redisUrl;
  }

  /** Null when tokens come from the dev endpoint. */
  String jwtSecret() {
    return jwtSecret;
  }

  /** The Kafka broker the bench started; null when it started none. */
  String kafkaBootstrap() {
    return kafkaBootstrap;
  }

  CpuMeter meter() {
    return meter;
  }

  /** What {@link #embedded} starts beside the service: Redis (one server or a cluster), Kafka. */
  record Backends(int redisClusterMasters, boolean kafka) {
    static final Backends STANDALONE = new Backends(0, false);
  }

  /**
   * Starts Redis (one server, or a cluster of {@code backends.redisClusterMasters()} masters),
   * PostgreSQL, a Kafka broker if asked, and the service process; returns once the service answers
   * {@code /health}. The service's output goes to {@code log}.
   */
  static Target embedded(
      Map<String, String> environment,
      List<String> jvmArgs,
      Pinning pinning,
      Path log,
      Backends backends)
      throws IOException, InterruptedException {
    var owned = new ArrayList<AutoCloseable>();
    try {
      String redisUrl;
      List<String> redisNodes;
      if (backends.redisClusterMasters() > 0) {
        EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(backends.redisClusterMasters());
        owned.add(cluster);
        redisUrl = cluster.url();
        redisNodes = cluster.ports().stream().map(port -> "redis://127.0.0.1:" + port).toList();
      } else {
        EmbeddedRedis redis = EmbeddedRedis.start();
        owned.add(redis);
        redisUrl = redis.url();
        redisNodes = List.of(redisUrl);
      }
      EmbeddedKafka kafka = null;
      if (backends.kafka()) {
        kafka = EmbeddedKafka.start();
        owned.add(kafka);
      }
      EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start();
      owned.add(postgres);
      int port = FreePorts.find();
      var command = new ArrayList<String>();
      if (pinning != null) {
        command.addAll(pinning.serviceCommandPrefix());
      }
      command.add(ProcessHandle.current().info().command().orElse("java"));
      boolean ownCollector = jvmArgs.stream().anyMatch(arg -> arg.matches("-XX:\\+Use\\w+GC"));
      for (String flag : SERVICE_JVM_FLAGS) {
        if (!(ownCollector && flag.matches("-XX:\\+Use\\w+GC"))) {
          command.add(flag);
        }
      }
      command.addAll(jvmArgs);
      command.addAll(
          List.of("-cp", System.getProperty("java.class.path"), "hongbao.app.Main", "serve"));
      var builder = new ProcessBuilder(command).redirectErrorStream(true);
      Files.createDirectories(log.getParent());
      builder.redirectOutput(log.toFile());
      builder.environment().putAll(environment);
      builder.environment().put("HONGBAO_PORT", Integer.toString(port));
      builder.environment().put("HONGBAO_REDIS_URL", redisUrl);
      builder.environment().put("HONGBAO_JDBC_URL", postgres.jdbcUrl());
      if (kafka != null) {
        builder.environment().put("HONGBAO_KAFKA_BOOTSTRAP", kafka.bootstrap());
      }
      Process service = builder.start();
      owned.add(() -> stop(service));
      String baseUrl = "http://127.0.0.1:" + port;
      awaitHealthy(baseUrl, service, log);
      long self = ProcessHandle.current().pid();
      var meter = new CpuMeter().with(Party.SERVICE, () -> List.of(service.pid()), false);
      // Every master of a cluster counts as Redis: CPU per grab is what all of them spent.
      var redisPids = new ArrayList<Long>();
      for (String node : redisNodes) {
        try (var info = new RedisInfo(node)) {
          info.localPid().ifPresent(redisPids::add);
        }
      }
      if (!redisPids.isEmpty()) {
        meter.with(Party.REDIS, () -> redisPids, true);
      }
      if (kafka != null) {
        long broker = kafka.pid();
        meter.with(Party.KAFKA, () -> List.of(broker), false);
      }
      long postmaster = postmaster(postgres.jdbcUrl());
      meter.with(Party.POSTGRES, () -> postgresProcesses(postmaster), true);
      meter.with(Party.GENERATOR, () -> List.of(self), false);
      var target =
          new Target(
              baseUrl,
              redisUrl,
              environment.get("HONGBAO_JWT_SECRET"),
              kafka == null ? null : kafka.bootstrap(),
              meter,
              reversed(owned));
      target.pin(pinning);
      return target;
    } catch (IOException | InterruptedException | RuntimeException e) {
      reversed(owned).forEach(Target::closeQuietly);
      throw e;
    }
  }

  /**
   * A running service. Its pid is {@code servicePid} or, for a loopback URL, whoever listens on its
   * port; Redis's pid comes from {@code INFO}; PostgreSQL is the postmaster {@code postgresPid} (or
   * the one serving {@code jdbcUrl}) and every process under it.
   */
  static Target attach(
      String url,
      String redisUrl,
      String jdbcUrl,
      String jwtSecret,
      Long servicePid,
      Long postgresPid,
      Pinning pinning)
      throws IOException, InterruptedException {
    var meter = new CpuMeter();
    URI uri = URI.create(url);
    OptionalLong service =
        servicePid != null
            ? OptionalLong.of(servicePid)
            : loopback(uri.getHost()) ? ProcessCpu.listener(uri.getPort()) : OptionalLong.empty();
    service.ifPresent(pid -> meter.with(Party.SERVICE, () -> List.of(pid), false));
    if (redisUrl != null) {
      try (var info = new RedisInfo(redisUrl)) {
        info.localPid().ifPresent(pid -> meter.with(Party.REDIS, () -> List.of(pid), true));
      }
    }
    Long postmaster =
        postgresPid != null ? postgresPid : jdbcUrl != null ? postmaster(jdbcUrl) : null;
    if (postmaster != null) {
      meter.with(Party.POSTGRES, () -> postgresProcesses(postmaster), true);
    } else {
      System.err.println(
          "bench: PostgreSQL's CPU is not measured (give --jdbc-url or --postgres-pid)");
    }
    long self = ProcessHandle.current().pid();
    meter.with(Party.GENERATOR, () -> List.of(self), false);
    var target = new Target(url, redisUrl, jwtSecret, null, meter, List.of());
    target.pin(pinning);
    return target;
  }

  /**
   * The postmaster serving {@code jdbcUrl}, if it runs here: the parent of this connection's
   * backend (a started PostgreSQL daemonizes, so it is no descendant of whoever started it).
   */
  private static Long postmaster(String jdbcUrl) {
    try (var connection = java.sql.DriverManager.getConnection(jdbcUrl);
        var statement = connection.createStatement();
        var result = statement.executeQuery("select pg_backend_pid()")) {
      result.next();
      long backend = result.getLong(1);
      long parent = ProcessCpu.parent(backend);
      return parent > 0 && ProcessCpu.command(parent).equals("postgres") ? parent : null;
    } catch (java.sql.SQLException e) {
      System.err.println("bench: cannot ask PostgreSQL for its pid: " + e.getMessage());
      return null;
    }
  }

  private static List<Long> postgresProcesses(long postmaster) {
    var pids = new ArrayList<>(List.of(postmaster));
    pids.addAll(ProcessCpu.descendantsNamed(postmaster, "postgres"));
    return pids;
  }

  /** Puts the service, Redis and PostgreSQL on the service's CPUs, the generator on its own. */
  void pin(Pinning pinning) throws IOException, InterruptedException {
    if (pinning == null) {
      return;
    }
    pinServerSide(pinning.serviceCpus());
    Pinning.pin(meter.pids().getOrDefault(Party.GENERATOR, List.of()), pinning.generatorCpus());
  }

  /**
   * Lets the service, Redis and PostgreSQL run on every pinned CPU, the generator's too: for a
   * drain of payouts, which the generator only watches (a few µs per grab), so that the drain is
   * measured on the whole box as a user would run it, not on the half the grab windows leave the
   * servers.
   */
  void spread(Pinning pinning) throws IOException, InterruptedException {
    if (pinning != null) {
      pinServerSide(pinning.serviceCpus() + "," + pinning.generatorCpus());
    }
  }

  private void pinServerSide(String cpus) throws IOException, InterruptedException {
    Map<Party, List<Long>> pids = meter.pids();
    for (Party party : List.of(Party.SERVICE, Party.REDIS, Party.POSTGRES)) {
      Pinning.pin(pids.getOrDefault(party, List.of()), cpus);
    }
  }

  private static boolean loopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
  }

  private static void awaitHealthy(String baseUrl, Process service, Path log)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!service.isAlive()) {
        throw new IOException(
            "the service exited with " + service.exitValue() + " while starting:\n" + tail(log));
      }
      try {
        var connection =
            (HttpURLConnection) URI.create(baseUrl + "/health").toURL().openConnection();
        connection.setConnectTimeout(1_000);
        connection.setReadTimeout(1_000);
        if (connection.getResponseCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new IOException("the service did not answer /health within " + START_TIMEOUT);
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** SIGTERM, so that the service's shutdown hook closes it cleanly; then, if need be, SIGKILL. */
  private static void stop(Process service) throws InterruptedException {
    service.destroy();
    if (!service.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      service.destroyForcibly();
      service.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private static List<AutoCloseable> reversed(List<AutoCloseable> resources) {
    var copy = new ArrayList<>(resources);
    java.util.Collections.reverse(copy);
    return copy;
  }

  private static void closeQuietly(AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception e) {
      System.err.println("bench: while stopping: " + e);
    }
  }

  @Override
  public void close() {
    owned.forEach(Target::closeQuietly);
  }
}
