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
import java.util.function.Consumer;
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
  private final String binary;
  private final List<RedisServer> servers = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();

  private EmbeddedRedisCluster(Path directory, String binary) {
    this.directory = directory;
    this.binary = binary;
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
    EmbeddedRedisCluster cluster;
    try {
      cluster =
          new EmbeddedRedisCluster(
              directory,
              ExecutableProvider.newJarResourceProvider(directory.toFile()).get().getPath());
    } catch (IOException e) {
      TemporaryFiles.deleteTree(directory);
      throw new UncheckedIOException("could not extract the embedded Redis binary", e);
    } catch (RuntimeException e) {
      TemporaryFiles.deleteTree(directory);
      throw e;
    }
    try {
      for (int i = 0; i < masters; i++) {
        cluster.startNode();
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

  private void startNode() throws IOException {
    int port = FreePorts.findWithBus();
    Files.createDirectories(data(port));
    RedisServer server = node(port);
    servers.add(server);
    server.start();
    ports.add(port);
  }

  private Path data(int port) {
    return directory.resolve("node-" + port);
  }

  private RedisServer node(int port) throws IOException {
    return new RedisServer(
        port,
        List.of(
            binary,
            "--port",
            Integer.toString(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            data(port).toString(),
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
  }

  /**
   * Keeps a copy of the master's data as it stands, as {@link EmbeddedRedis#snapshot} does for one
   * server: {@link #restartFrom} it stands for a failover to a replica that lagged by every write
   * made since.
   */
  public synchronized Path snapshot(int port, Path copy) {
    master(port);
    return EmbeddedRedis.snapshot(
        "redis://127.0.0.1:" + port, data(port).resolve(EmbeddedRedis.AOF), copy);
  }

  /**
   * Restarts the master on {@code port} from a {@link #snapshot}: the same node and slots, a new
   * run id, the older state.
   */
  public void restartFrom(int port, Path snapshot) {
    restart(port, directory -> EmbeddedRedis.putBack(snapshot, directory));
  }

  /**
   * Stops the master on {@code port}, lets {@code disk} change what it left in its data directory
   * (a drill deletes the append-only file), and starts a new process on the same port and
   * directory. Its {@code nodes.conf} stays, so it comes back as the same node owning the same
   * slots, with a new run id and whatever data the directory still holds.
   */
  public synchronized void restart(int port, Consumer<Path> disk) {
    int index = master(port);
    try {
      servers.get(index).stop();
      disk.accept(data(port));
      RedisServer server = node(port);
      servers.set(index, server);
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not restart the master on port " + port, e);
    }
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

  private int master(int port) {
    int index = ports.indexOf(port);
    if (index < 0) {
      throw new IllegalArgumentException("no master on port " + port + ": " + ports);
    }
    return index;
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
