package hongbao.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * Embedded servers get ports below the kernel's ephemeral range, where no client connection takes
 * one as its local port while its server is down for a restart.
 */
class FreePortsTest {

  @Test
  void aServersPort_isFree_andBelowTheEphemeralRange() throws IOException {
    int floor = FreePorts.ephemeralFloor();
    for (int i = 0; i < 20; i++) {
      int port = FreePorts.find();
      assertThat(port).isBetween(10_000, floor - 1);
      try (var server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(server.getLocalPort()).isEqualTo(port);
      }
    }
  }

  @Test
  void aClusterNodesPort_keepsItsBusPortBelowTheEphemeralRangeToo() {
    int floor = FreePorts.ephemeralFloor();
    for (int i = 0; i < 20; i++) {
      int port = FreePorts.findWithBus();
      assertThat(port + FreePorts.CLUSTER_BUS_OFFSET).isBetween(20_000, floor - 1);
    }
  }
}
