#if canImport(Glibc)
import Glibc
#endif

func listenMain(_ arguments: [String]) -> Int32 {
    eprint("gestured listen: not implemented yet")
    return 1
}
