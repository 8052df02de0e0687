package hongbao.app.expiry;

import hongbao.app.support.Backends;

/** The same expiry races on an embedded Redis Cluster of three masters. */
class ClusterExpiryRaceTest extends ExpiryRaceTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }
}
