import GestureDaemon
print("gestured: not yet")
