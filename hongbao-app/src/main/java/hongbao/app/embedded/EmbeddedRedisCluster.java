package hongbao.app.embedded;

import hongbao.redis.RedisLink;
import hongbao.redis.cluster.ClusterFormation;
import io.lettuce.core.RedisURI;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * A Redis Cluster of masters in child processes, for {@code HONGBAO_EMBEDDED_REDIS_CLUSTER} and for
 * tests: each master on a free port whose bus port (port + 10,000) is free too, with its own data
 * directory (AOF on, as {@link EmbeddedRedis}) under one temporary folder that holds the extracted
 * binary as well and is removed on close.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

  public static final int MAX_MASTERS = 16;

  private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(30);

  private final Path directory;
  private final List<RedisServer> servers = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();

  private EmbeddedRedisCluster(Path directory) {
    this.directory = directory;
  }

  /** Starts {@code masters} nodes and forms them into one cluster covering every slot. */
  public static EmbeddedRedisCluster start(int masters) {
    if (masters < 1 || masters > MAX_MASTERS) {
      throw new IllegalArgumentException("masters must be 1.." + MAX_MASTERS + ": " + masters);
    }
    Path directory;
    try {
      directory = Files.createTempDirectory("hongbao-redis-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException("could not make the embedded cluster's directory", e);
    }
    var cluster = new EmbeddedRedisCluster(directory);
    try {
      String binary = ExecutableProvider.newJarResourceProvider(directory.toFile()).get().getPath();
      for (int i = 0; i < masters; i++) {
        cluster.startNode(binary);
      }
      ClusterFormation.form(
          cluster.ports.stream().map(port -> RedisURI.create("127.0.0.1", port)).toList(),
          FORMATION_TIMEOUT);
      return cluster;
    } catch (IOException e) {
      cluster.close();
      throw new UncheckedIOException("could not start the embedded Redis cluster", e);
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private void startNode(String binary) throws IOException {
    int port = FreePorts.findWithBus();
    Path data = Files.createDirectories(directory.resolve("node-" + port));
    var server =
        new RedisServer(
            port,
            List.of(
                binary,
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                data.toString(),
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                "5000",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--aof-load-truncated",
                "yes",
                "--maxmemory-policy",
                "noeviction"),
            true);
    servers.add(server);
    server.start();
    ports.add(port);
  }

  /** {@code redis-cluster://127.0.0.1:p1,127.0.0.1:p2,...}, as {@code HONGBAO_REDIS_URL} takes. */
  public String url() {
    return RedisLink.CLUSTER_SCHEME
        + ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
  }

  /** The masters' client ports. */
  public List<Integer> ports() {
    return List.copyOf(ports);
  }

  @Override
  public void close() {
    for (RedisServer server : servers) {
      try {
        server.stop();
      } catch (IOException | RuntimeException e) {
        // Stop the others anyway; the folder is removed below.
      }
    }
    TemporaryFiles.deleteTree(directory);
  }
}
