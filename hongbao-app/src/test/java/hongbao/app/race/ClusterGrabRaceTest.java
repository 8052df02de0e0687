package hongbao.app.race;

import hongbao.app.support.Backends;

/** The same race on an embedded Redis Cluster of three masters. */
class ClusterGrabRaceTest extends GrabRaceTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }
}
