package hongbao.app.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Finds a free loopback port for an embedded server. */
public final class FreePorts {

  /** A Redis Cluster node's bus listens on its port + this. */
  public static final int CLUSTER_BUS_OFFSET = 10_000;

  private FreePorts() {}

  public static int find() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  /** A free loopback port for a cluster node: its bus port (port + 10,000) is free too. */
  public static int findWithBus() {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = find();
      if (port + CLUSTER_BUS_OFFSET <= 65_535 && isFree(port + CLUSTER_BUS_OFFSET)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port with a free cluster bus port");
  }

  private static boolean isFree(int port) {
    try (var socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
