#if canImport(Glibc)
import Glibc
#endif

func monitorMain(_ arguments: [String]) -> Int32 {
    eprint("gestured monitor: not implemented yet")
    return 1
}
