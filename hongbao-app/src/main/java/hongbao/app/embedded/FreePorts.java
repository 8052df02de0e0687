package hongbao.app.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Finds a free loopback port for an embedded server, below the kernel's ephemeral range: a port in
 * that range can be taken, the moment its server stops, as the local port of some client's new
 * connection, and a server restarted on it (a drill restarting Redis on its port) then fails to
 * bind. Where the range cannot be read, or leaves no room below it, the kernel picks.
 */
public final class FreePorts {

  /** A Redis Cluster node's bus listens on its port + this. */
  public static final int CLUSTER_BUS_OFFSET = 10_000;

  /** The lowest port handed out: clear of the well-known and most registered services. */
  private static final int LOWEST = 10_000;

  private static final int ATTEMPTS = 200;

  private static final AtomicLong CANDIDATES = new AtomicLong();

  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  private FreePorts() {}

  public static int find() {
    int highest = ephemeralFloor() - 1;
    for (int attempt = 0; highest > LOWEST && attempt < ATTEMPTS; attempt++) {
      int port = next(highest);
      if (isFree(port)) {
        return port;
      }
    }
    return anyPort();
  }

  /** A free loopback port for a cluster node: its bus port (port + 10,000) is free too. */
  public static int findWithBus() {
    int highest = ephemeralFloor() - 1 - CLUSTER_BUS_OFFSET;
    for (int attempt = 0; highest > LOWEST && attempt < ATTEMPTS; attempt++) {
      int port = next(highest);
      if (isFree(port) && isFree(port + CLUSTER_BUS_OFFSET)) {
        return port;
      }
    }
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = anyPort();
      if (port + CLUSTER_BUS_OFFSET <= 65_535 && isFree(port + CLUSTER_BUS_OFFSET)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port with a free cluster bus port");
  }

  /**
   * The next candidate in [LOWEST, highest]: each process walks the range from its own place (set
   * by its pid, so that test forks side by side try different ports) and onwards, so a port comes
   * round again only after the whole range: a server just stopped does not find its port handed to
   * another of the process's servers.
   */
  private static int next(int highest) {
    int span = highest - LOWEST + 1;
    long start = ProcessHandle.current().pid() * 7_919L;
    return LOWEST + (int) Math.floorMod(start + CANDIDATES.getAndIncrement(), (long) span);
  }

  /** The first port of the kernel's ephemeral range, or 32768 (Linux's default) if unreadable. */
  static int ephemeralFloor() {
    try {
      // By lines: a /proc file reports a size of 0, and a read sized by it stops short.
      return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }

  private static int anyPort() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  private static boolean isFree(int port) {
    try (var socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return socket.isBound();
    } catch (IOException e) {
      return false;
    }
  }
}
