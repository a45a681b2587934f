#if canImport(Glibc)
import Glibc
#endif

func devicesMain(_ arguments: [String]) -> Int32 {
    eprint("gestured devices: not implemented yet")
    return 1
}
